import Foundation

/// Process-wide settings every profctl entry point makes first.
package enum ProcessSetup {
    /// A file size limit (ulimit -f) then makes writes fail with EFBIG, which SQLite
    /// reports and profctl explains, instead of killing the process with SIGXFSZ half-way
    /// through a transaction.
    package static func prepare() {
        signal(SIGXFSZ, SIG_IGN)
    }
}
