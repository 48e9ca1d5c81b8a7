import ArgumentParser
import Foundation
import Testing
@testable import ProfctlCommands
import Profiler
import ProfilerCLI

@Suite("Command-line parsing")
struct CommandLineTests {
    @Test("record takes scenarios, --repeat, --instances and --db")
    func record() throws {
        let parsed = try Profctl.parseAsRoot(["record", "lazy-container", "--repeat", "3", "--instances", "10", "--db", "x.sqlite"])
        let record = try #require(parsed as? Record)
        #expect(record.scenarios == ["lazy-container"])
        #expect(record.options.repeats == 3)
        #expect(record.options.instances == 10)
        #expect(record.database.path == "x.sqlite")
    }

    @Test("bad record options are usage errors (exit 64) that say what is wrong", arguments: [
        (["record", "lazy-container", "--repeat", "0"], "--repeat must be at least 1"),
        (["record", "lazy-container", "--instances", "0"], "--instances must be a whole number from 1 to 1000000 (got 0)"),
        (["record", "no-such-scenario"], "known scenarios: lazy-container, lazy-list"),
        (["report", "--format", "xml"], "xml"),
        (["report", "--bytes", "allocated"], "allocated"),
        (["record", "lazy-list", "--set", "viewport=0"], "viewport must be a whole number from 1 to 10000"),
        (["record", "lazy-list", "--set", "speed=3"], "a name among: rows, viewport"),
        (["record", "identity", "--strategies", "stable-id,uuid"], "its strategies: stable-id, index-id, fresh-id"),
        (["check", "--baseline", "previous", "--tolerance", "=2%"], "a metric name goes before '='"),
        (["query", "SELECT 1", "--timeout", "inf"], "--timeout must be more than 0 seconds"),
        (["check", "--baseline", "previous", "--min-effect-ns", "nan"], "--min-effect-ns must be a number of at least 0"),
        (["check", "--baseline", "previous", "--min-effect", "nan"], "--min-effect must be a number of at least 0"),
    ])
    func usageErrors(arguments: [String], message: String) {
        do {
            _ = try Profctl.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed without error")
        } catch {
            #expect(Profctl.exitCode(for: error).rawValue == 64)
            #expect(Profctl.fullMessage(for: error).contains(message))
        }
    }

    @Test("report defaults to every scenario's newest run, a table, requested bytes")
    func reportDefaults() throws {
        let report = try #require(try Profctl.parseAsRoot(["report"]) as? Report)
        #expect(report.selection.runReference == nil && report.selection.scenario == nil)
        #expect(report.format == .table)
        #expect(report.bytes == .requested)
    }

    @Test("query takes one SQL argument and a format")
    func query() throws {
        let query = try #require(try Profctl.parseAsRoot(["query", "SELECT 1", "--format", "csv"]) as? Query)
        #expect(query.sql == "SELECT 1")
        #expect(query.format == .csv)
    }

    /// profctl itself ("") and every command it has, read from its command tree: a new
    /// command is held to the rule without being added to a list here (this one had
    /// missed types and whatif).
    static let topLevelCommands: [String] = [""] + Profctl.configuration.subcommands.map { $0._commandName }

    @Test("every command's help ends with an example", arguments: CommandLineTests.topLevelCommands)
    func helpEndsWithExample(command: String) throws {
        let arguments = command.isEmpty ? ["--help"] : [command, "--help"]
        do {
            // Help comes back as a command whose run() throws the help request, as in main().
            var command = try Profctl.parseAsRoot(arguments)
            try command.run()
            Issue.record("--help did not ask for help")
        } catch {
            let help = try #require(Profctl.helpWithExamples(for: error, arguments: arguments))
            let lines = help.split(separator: "\n")
            #expect(lines.contains("EXAMPLES:"))
            #expect(lines.last?.hasPrefix("  ") == true)
            #expect(lines.last?.contains("profctl") == true)
        }
    }

    /// Every command's name path: [] for profctl itself, ["record"], ["baseline", "set"], ...
    static func commandPaths(_ command: any ParsableCommand.Type = Profctl.self, _ path: [String] = []) -> [[String]] {
        [path] + command.configuration.subcommands.flatMap { commandPaths($0, path + [$0._commandName]) }
    }

    /// The lines of a help text with a run of three or more spaces inside their text: past
    /// the indentation, past ArgumentParser's column between an option, argument or
    /// subcommand and its help, and not the alignment of an example's `#` comment. Such a
    /// run is a multi-line string literal's indentation leaking into a help string.
    static func linesWithStraySpaces(_ help: String) -> [String] {
        var section = ""
        var stray: [String] = []
        for line in help.split(separator: "\n").map(String.init) {
            if line.first != " ", line.hasSuffix(":"), line == line.uppercased() {
                section = line
                continue
            }
            var text = line.drop { $0 == " " }
            let labelled = section.hasSuffix("OPTIONS:") || ["ARGUMENTS:", "SUBCOMMANDS:"].contains(section)
            if labelled, line.hasPrefix("  "), !line.hasPrefix("   "), let column = text.range(of: "  ") {
                text = text[column.upperBound...].drop { $0 == " " }
            }
            let runs = text.matches(of: /[ ]{3,}(.)/).filter { !(section == "EXAMPLES:" && $0.output.1 == "#") }
            if !runs.isEmpty { stray.append(line) }
        }
        return stray
    }

    @Test("the stray-space finder flags indentation inside a sentence, not the option column or an example's comment")
    func straySpaceFinder() {
        let help = """
            OVERVIEW: Fail a build.

            --leaks checks what scenarios leave behind: bytes a             round trip left.

            OPTIONS:
              --baseline <baseline>   What to compare with: RUN_ID, LABEL, previous, or
                                      median:N.
              --alpha <alpha>         Significance   level.

            EXAMPLES:
              profctl export -o a.json   # then open it
            """
        #expect(Self.linesWithStraySpaces(help) == [
            "--leaks checks what scenarios leave behind: bytes a             round trip left.",
            "  --alpha <alpha>         Significance   level.",
        ])
    }

    @Test("no command's help has a run of spaces inside its text", arguments: commandPaths())
    func helpHasNoStraySpaces(path: [String]) throws {
        let arguments = path + ["--help"]
        do {
            var command = try Profctl.parseAsRoot(arguments)
            try command.run()
            Issue.record("--help did not ask for help")
        } catch {
            let help = try #require(Profctl.helpWithExamples(for: error, arguments: arguments))
            #expect(help.contains("USAGE:"))
            #expect(Self.linesWithStraySpaces(help) == [], "profctl \(path.joined(separator: " ")) --help")
        }
    }

    @Test("errors map to the documented exit codes")
    func exitCodes() {
        #expect(ExitCodes.code(for: StoreError.notADatabase(path: "x")) == 3)
        #expect(ExitCodes.code(for: StoreError.schemaNewer(path: "x", found: 2, known: 1)) == 8)
        #expect(ExitCodes.code(for: StoreError.truncatedDatabase(path: "x", expected: 2, actual: 1)) == 7)
        #expect(ExitCodes.code(for: StoreError.emptyDatabase(path: "x")) == 10)
        #expect(ExitCodes.code(for: StoreError.missingDatabase(path: "x")) == 1)
        #expect(ExitCodes.code(for: StoreError.readOnlyViolation(sql: "DELETE")) == 64)
        #expect(ExitCodes.code(for: SQLiteError(code: 1, message: "x")) == 1)
        #expect(ExitCodes.code(for: ScenarioFileError(path: "f", line: 1, column: 1, message: "m")) == 64)
    }

    /// swift-argument-parser derives a missing commandName from the type's name at every
    /// start (17.8M of `profctl --version`'s 41M instructions for 14 subcommands): each
    /// command names itself.
    @Test("every command and subcommand sets its commandName")
    func commandNamesSet() {
        func walk(_ command: any ParsableCommand.Type, path: String) {
            let name = command.configuration.commandName
            #expect(name != nil, "\(path) \(command) sets no commandName")
            for sub in command.configuration.subcommands { walk(sub, path: path + " " + (name ?? "?")) }
        }
        walk(Profctl.self, path: "")
    }
}
