import Foundation

extension ProfctlProcess {
    /// `profctl record` did not exit 0: the whole command and what it said.
    package struct RecordFailed: Error, CustomStringConvertible {
        package let arguments: [String]
        package let status: Int32
        package let stderr: String

        package var description: String {
            "profctl \(arguments.joined(separator: " ")) exited \(status): \(stderr)"
        }
    }

    /// Records with the built profctl into `db` (a path relative to `folder`) without
    /// progress output, as the process tests' setup does, and throws unless it succeeded:
    /// the one `record` helper of the test targets.
    @discardableResult
    package static func record(_ arguments: [String], db: String = "profile.sqlite", environment: [String: String] = [:],
                               in folder: TemporaryFolder) throws -> Result {
        let command = ["record"] + arguments + ["--quiet", "--db", db]
        let result = try run(command, environment: environment, in: folder.url)
        guard result.status == 0 else { throw RecordFailed(arguments: command, status: result.status, stderr: result.stderr) }
        return result
    }
}
