import Foundation
import ProfilerCLI
import Testing

/// `swift package profile` (Plugins/ProfilePlugin) run by SwiftPM on Examples/OwnComponents,
/// as a user runs it. These cases stop before anything is built, so they take seconds
/// (one resolution and one compile of the plugin, shared); scripts/test-example runs the
/// whole record, report and check.
enum ProfilePluginRun {
    static let package = DocumentedExamplesTests.root.appendingPathComponent("Examples/OwnComponents")
    static let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-plugin-tests-\(getpid())")

    static func run(_ arguments: [String]) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                               ["swift", "package", "--scratch-path", scratch.path, "profile"] + arguments, in: package)
    }
}

@Suite("swift package profile: help, and names checked before anything is built", .serialized)
struct ProfilePluginTests {
    @Test("--help says what it records, where, and how check's exit codes reach CI, with examples")
    func help() throws {
        let result = try ProfilePluginRun.run(["--help"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for text in ["USAGE: swift package profile", ".profctl/profile.sqlite", "ProfilerCLI", "EXAMPLES:",
                     "swift package profile check --budget budgets.yaml"] {
            #expect(result.stdout.contains(text), "help lacks '\(text)'")
        }
    }

    @Test("a command that does not exist exits 64 with the commands there are (SwiftPM reports it as 1)")
    func unknownCommand() throws {
        let result = try ProfilePluginRun.run(["reprot"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("has no command 'reprot'"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Commands: record, report, check, help"))
        // The plugin's own status, as SwiftPM names it: ExitCodes.usage.
        #expect(result.stderr.contains("Plugin ended with exit code \(ExitCodes.usage)"), "\(result.stderr)")
    }

    @Test("an executable that is not one of the package's ProfilerMain programs exits 64 listing them")
    func unknownExecutable() throws {
        let result = try ProfilePluginRun.run(["--executable", "own-component"])
        #expect(result.stderr.contains("'own-component' is not an executable"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Executables: own-components"))
        #expect(result.stderr.contains("Plugin ended with exit code \(ExitCodes.usage)"))
    }
}
