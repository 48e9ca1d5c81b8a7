import Foundation

/// Where the plugin and the programs it runs write. SwiftPM gives a command plugin one
/// pipe for stdout and stderr together and copies it to its own stdout, so `swift package
/// profile report --format json | jq` would get the messages too and `2>/dev/null` would
/// hide none. On Linux the plugin reaches `swift package`'s own stdout and stderr through
/// /proc (its parent's fd 1 and 2) when they are a terminal or a pipe. A regular file is
/// left to SwiftPM's copy: opened again it would be a second description with its own
/// offset, and `swift package`'s later writes (an error line, a script's next command in
/// `> log 2>&1`) would overwrite what the plugin wrote; there progress lines are left out
/// and the rest shares SwiftPM's stream.
struct Console: Sendable {
    let output: FileHandle
    let errors: FileHandle
    /// Whether stderr is the caller's own, so progress lines cannot mix into data.
    let separateErrors: Bool

    init() {
        output = Self.parents(descriptor: 1) ?? FileHandle.standardOutput
        let callersErrors = Self.parents(descriptor: 2)
        errors = callersErrors ?? FileHandle.standardError
        separateErrors = callersErrors != nil
    }

    func out(_ text: String) { output.write(Data((text + "\n").utf8)) }
    func error(_ text: String) { errors.write(Data((text + "\n").utf8)) }
    /// A line about what is happening ("Building ..."): only where it cannot end up in data.
    func progress(_ text: String) { if separateErrors { error(text) } }

    private static func parents(descriptor: Int32) -> FileHandle? {
        let fd = open("/proc/\(getppid())/fd/\(descriptor)", O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG else {
            close(fd)
            return nil
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
