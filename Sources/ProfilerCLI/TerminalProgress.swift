import Foundation
import Profiler

/// Draws a run's progress bar on stderr, redrawn in place, once the run has taken more
/// than a second (shorter runs show only their summary line). Only for a terminal: the
/// caller decides that.
final class TerminalProgress: ProgressDisplay, @unchecked Sendable {
    // The progress thread draws the bar, the recording thread writes the scenario's lines.
    private let lock = NSLock()
    private var drawn = false
    private let prefix: String
    private let delay: Double

    /// `prefix` goes before each line: "[2/5] " when several scenarios record.
    /// PROFCTL_PROGRESS_AFTER (seconds, default 1) says how long a run goes before its bar shows.
    init(prefix: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.prefix = prefix
        self.delay = environment["PROFCTL_PROGRESS_AFTER"].flatMap(Double.init) ?? 1
    }

    func update(_ snapshot: ProgressSnapshot) {
        guard snapshot.elapsedSeconds >= delay else { return }
        let line = prefix + ProgressBar.render(snapshot, width: Self.terminalWidth() - 1 - prefix.count)
        // Carriage return, the line, then erase whatever a longer earlier line left.
        lock.withLock {
            FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
            drawn = true
        }
    }

    /// A line of the scenario's own (`ScenarioContext.progress`: "lazy-container: Label
    /// eager: 1000 instances" after each pass), above the bar: the bar is taken away and
    /// drawn again at the next update.
    func line(_ text: String) {
        lock.withLock {
            FileHandle.standardError.write(Data(((drawn ? "\r\u{1B}[K" : "") + prefix + text + "\n").utf8))
            drawn = false
        }
    }

    func clear() {
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }

    /// The terminal's width; where it does not say (a pseudo-terminal without a size),
    /// COLUMNS, else 80.
    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }
}
