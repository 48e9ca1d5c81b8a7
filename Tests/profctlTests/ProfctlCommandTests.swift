import ArgumentParser
import Testing
@testable import ProfctlCommands
import Profiler
import ProfilerCLI

/// A command's error reporting is provided once (ProfctlCommand), not remembered per
/// command: a command that left it out used to build, and its library errors then missed
/// their messages and exit codes (ExitCodes.swift).
@Suite("Commands and their error reporting")
struct ProfctlCommandTests {
    /// Every command in profctl's tree with no subcommands of its own: the ones that run.
    static func leafCommands(_ command: any ParsableCommand.Type = Profctl.self, _ path: [String] = []) -> [([String], any ParsableCommand.Type)] {
        let subcommands = command.configuration.subcommands
        if subcommands.isEmpty { return [(path, command)] }
        return subcommands.flatMap { leafCommands($0, path + [$0._commandName]) }
    }

    @Test("every command in profctl's tree is a ProfctlCommand, so main runs it inside its error reporting")
    func everyCommandReports() {
        let leaves = Self.leafCommands()
        #expect(leaves.count >= 19)
        for (path, command) in leaves {
            #expect(command is any ProfctlCommand.Type,
                    "profctl \(path.joined(separator: " ")) (\(command)) is not a ProfctlCommand: conform it (StoreCommand if it takes --store) and put its body in execute()")
        }
    }

    @Test("the commands that reach the PostgreSQL store (--store, push) report its errors, the others SQLite's")
    func storeCommands() {
        for (path, command) in Self.leafCommands() {
            // push names the store as its argument, the others with --store.
            let takesStore = command.helpMessage(columns: 400).contains("--store <") || command == Push.self
            #expect((command is any StoreCommand.Type) == takesStore, "profctl \(path.joined(separator: " "))")
        }
    }

    /// A library error thrown by a command's body, and a run() written by hand that would
    /// let it out unreported.
    struct Bypassing: ProfctlCommand {
        static let configuration = CommandConfiguration(commandName: "bypassing")
        func execute() throws { throw StoreError.missingDatabase(path: "nowhere.sqlite") }
        func run() throws { try execute() }
    }

    @Test("main runs a command through its error reporting even when the command writes its own run()")
    func ownRunIsNotUsed() throws {
        var command: any ParsableCommand = Bypassing()
        let error = #expect(throws: ExitCode.self) { try command.runAsProfctl() }
        #expect(error?.rawValue == ExitCodes.code(for: StoreError.missingDatabase(path: "nowhere.sqlite")))
        // Its own run() lets the library error out as it is: what main no longer calls.
        #expect(throws: StoreError.self) { try Bypassing().run() }
    }

    @Test("a group (baseline, profctl itself) still runs as ArgumentParser runs it")
    func groupsRunAsBefore() throws {
        var group: any ParsableCommand = try Profctl.parseAsRoot(["baseline"])
        #expect(!(group is any ProfctlCommand))
        // A group without a subcommand asks for its help, as before.
        #expect(throws: (any Error).self) { try group.runAsProfctl() }
    }
}
