import ArgumentParser
import Testing
@testable import ProfctlCommands
import ProfilerCLI

/// profctl leaves out swift-argument-parser's completion-script check (two stand-in parses
/// on every start) by naming an empty super-command only while a command line without a
/// completion-script request is parsed: what a user sees must not change.
@Suite struct CompletionScriptCheckTests {
    @Test func theRootConfigurationIsPlainOutsideAParse() throws {
        _ = try CompletionScriptCheck.parse(["runs", "--db", "x.sqlite"], as: Profctl.self)
        #expect(Profctl.configuration._superCommandName == nil)
        #expect(Profctl.helpMessage().contains("USAGE: profctl <subcommand>"))
    }

    @Test func aLineWithoutARequestParsesAsBefore() throws {
        let parsed = try CompletionScriptCheck.parse(["runs", "--db", "x.sqlite"], as: Profctl.self)
        #expect(parsed is Runs)
        #expect(throws: (any Error).self) { try CompletionScriptCheck.parse(["runs", "--bogus"], as: Profctl.self) }
    }

    @Test(arguments: [["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"]])
    func aCompletionScriptRequestIsStillSeen(arguments: [String]) {
        do {
            _ = try CompletionScriptCheck.parse(arguments, as: Profctl.self)
            Issue.record("\(arguments) parsed as a command instead of asking for a completion script")
        } catch {
            #expect(Profctl.exitCode(for: error) == .success)
            #expect(Profctl.fullMessage(for: error).contains("profctl"))
        }
    }
}
