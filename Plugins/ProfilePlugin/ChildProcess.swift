import Foundation

/// One program the plugin runs (a recording executable, or profctl) with the caller's own
/// stdout and stderr, in the package's folder (so relative paths, `--budget budgets.yaml`,
/// mean the same as in `--db`). A non-zero status ends the plugin with the same status, after
/// naming the command so that CI can run it directly for the exact status (SwiftPM
/// reports every plugin failure as exit 1).
struct ChildProcess {
    let executable: URL
    let arguments: [String]
    let folder: URL
    let console: Console

    init(_ executable: URL, _ arguments: [String], in folder: URL, console: Console) {
        self.executable = executable
        self.arguments = arguments
        self.folder = folder
        self.console = console
    }

    func run() throws {
        let process = try start(output: console.output)
        process.waitUntilExit()
        try passOn(process)
    }

    /// Runs it with stdout read here and copied to the caller's stdout as it comes, and
    /// returns what it printed.
    func runCapturingOutput() throws -> String {
        let pipe = Pipe()
        let process = try start(output: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        var printed = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            console.output.write(chunk)
            printed.append(chunk)
        }
        process.waitUntilExit()
        try passOn(process)
        return String(decoding: printed, as: UTF8.self)
    }

    private func start(output: FileHandle) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = output
        process.standardError = console.errors
        try process.run()
        return process
    }

    private func passOn(_ process: Process) throws {
        let status = process.terminationStatus
        guard process.terminationReason == .exit, status == 0 else {
            let how = process.terminationReason == .exit ? "exited \(status)" : "was ended by signal \(status)"
            console.error("""
                error: \(executable.lastPathComponent) \(how) (exit codes: docs/cli.md). swift package reports every plugin \
                failure as exit 1; for the status itself run, in \(folder.path):
                  \(([executable.path] + arguments).map(Self.quoted).joined(separator: " "))
                """)
            exit(process.terminationReason == .exit ? status : 128 + status)
        }
    }

    private static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@+".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
