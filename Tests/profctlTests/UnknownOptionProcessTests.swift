import Foundation
import Testing

/// ArgumentParser validates a command before it reports options the command does not
/// declare, so a misspelt option's value reached validate() as a positional argument
/// (Sources/profctl/UnknownOption.swift): profctl names the option instead.
@Suite("a misspelt option is named, not taken for a positional argument")
struct UnknownOptionProcessTests {
    @Test("record lazy-container --instancez 5: the option and its fix, not 'unknown scenario 5'; no database written")
    func misspeltOptionWithValue() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["record", "lazy-container", "--instancez", "5", "--db", "p.sqlite"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: Unknown option '--instancez'. Did you mean '--instances'?"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'profctl record --help' for more information."), "\(result.stderr)")
        #expect(!result.stderr.contains("unknown scenario"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("p.sqlite").path))
    }

    @Test("a nested subcommand names its own path; far-off names get no suggestion")
    func nestedSubcommand() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["baseline", "set", "main", "--zzzzzz", "--db", "p.sqlite"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: Unknown option '--zzzzzz'.\n"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'profctl baseline set --help'"), "\(result.stderr)")
    }

    @Test("with every option declared, the command's own validation speaks; after '--' nothing is an option")
    func declaredOptionsKeepTheirErrors() throws {
        let folder = try TemporaryFolder()
        let unknown = try ProfctlProcess.run(["record", "nope", "--quiet", "--db", "p.sqlite"], in: folder.url)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown scenario 'nope'"), "\(unknown.stderr)")
        let terminated = try ProfctlProcess.run(["record", "--db", "p.sqlite", "--", "--instancez"], in: folder.url)
        #expect(terminated.status == 64)
        #expect(terminated.stderr.contains("unknown scenario '--instancez'"), "\(terminated.stderr)")
    }

    @Test("a misspelt command is named with the closest one and every command there is", arguments: [
        (["reprot"], "'profctl' has no command 'reprot'. Did you mean 'report'?", "Commands: record, report,"),
        (["baseline", "st", "main", "--db", "p.sqlite"], "'profctl baseline' has no command 'st'. Did you mean 'set'?", "Commands: set, list, rm"),
    ])
    func misspeltCommand(arguments: [String], error: String, commands: String) throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(error), "\(result.stderr)")
        #expect(result.stderr.contains(commands), "\(result.stderr)")
        #expect(!result.stderr.contains("--db"), "the command, not an option, is the mistake: \(result.stderr)")
    }

    @Test("SQL that starts with a '--' comment is not called an unknown option: the fix is a lone '--' before it")
    func argumentStartingWithDashes() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["query", "-- the runs\nSELECT 1"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("'-- the runs...' starts with '--', so it was read as an option: put a lone '--' before it"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("Unknown option"), "\(result.stderr)")
    }
}
