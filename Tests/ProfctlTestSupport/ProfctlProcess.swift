import Foundation

/// Runs the real profctl binary (or any other program), built next to the test bundle.
package struct ProfctlProcess {
    package struct Result {
        package let status: Int32
        package let stdout: String
        package let stderr: String
    }

    /// The profctl this build made.
    package static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("profctl")
    }

    package static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL) throws -> Result {
        try run(executable: binary, arguments, environment: environment, in: folder)
    }

    /// Runs `executable` in `folder` with PROFCTL_DB unset (a test names its database)
    /// and `environment` added, and returns its exit status and both outputs.
    package static func run(executable: URL, _ arguments: [String], environment: [String: String] = [:],
                            in folder: URL) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PROFCTL_DB")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on another thread while reading stdout, so neither pipe can fill and stall the child.
        let stderrBox = DataBox()
        let reader = Thread { stderrBox.data = err.fileHandleForReading.readDataToEndOfFile(); stderrBox.done.signal() }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        stderrBox.done.wait()
        let stderr = stderrBox.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// What the stderr reader thread read; written by it, read after it signalled.
private final class DataBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
