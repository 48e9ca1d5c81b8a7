import ArgumentParser
import Foundation
import Testing
@testable import ProfctlCommands
import Profiler
import ProfilerCLI
import ProfctlTestSupport

/// The parts of docs/cli.md and docs/scenario-format.md that code generates: the
/// built-in scenarios' tables from their declarations, and the synopses' `--format` lists
/// from the commands' format menus. A stale part fails here, naming the command that
/// rewrites it (GeneratedDocPart.regenerate), so a new scenario or output format is not
/// also a hand edit of these docs.
@Suite("Generated parts of the docs")
struct GeneratedDocsTests {
    static let docs = DocumentedExamplesTests.root.appendingPathComponent("docs")

    static let scenarioTable = GeneratedDocPart(begin: "<!-- BEGIN scenarios table", end: "<!-- END scenarios table -->")
    static let synopsis = GeneratedDocPart(begin: "<!-- BEGIN synopsis", end: "<!-- END synopsis -->")

    @Test("docs/cli.md's scenarios table is what the declarations generate")
    func cliScenarios() throws {
        let problem = try Self.scenarioTable.problem(in: Self.docs.appendingPathComponent("cli.md")) { _ in
            ScenarioDocTables.overview(BuiltInScenarios.all)
        }
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("docs/scenario-format.md's kinds table is what the declarations generate")
    func scenarioFormatKinds() throws {
        let problem = try Self.scenarioTable.problem(in: Self.docs.appendingPathComponent("scenario-format.md")) { _ in
            ScenarioDocTables.kinds(BuiltInScenarios.all)
        }
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("docs/cli.md's synopses spell each command's --format choices from its menu")
    func synopsisFormats() throws {
        let url = Self.docs.appendingPathComponent("cli.md")
        let problem = try Self.synopsis.problem(in: url, Self.withMenuFormats)
        #expect(problem == nil, "\(problem ?? "")")
        // Every synopsis that spells its formats is generated: none is left outside the markers.
        let document = try String(contentsOf: url, encoding: .utf8)
        let outside = Self.synopsis.regenerated(document) { _ in "" }
        #expect(outside.firstMatch(of: Self.spelledFormats) == nil, "a synopsis spells --format choices outside the generated parts")
    }

    /// `--format a|b|c`: a synopsis spelling the choices (`--format F` and `--format ...` do not).
    static var spelledFormats: Regex<Substring> { /--format [a-z-]+(?:\|[a-z-]+)+/ }

    /// A synopsis block with each `--format a|b|c` spelled from the menu of the command
    /// its `profctl ...` line names (a continuation line belongs to the line above).
    static func withMenuFormats(_ block: String) -> String {
        var offered: [OutputFormat]?
        var lines: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "profctl" { offered = menu(of: command(named: Array(words.dropFirst()))) }
            let spelled = "--format " + (offered ?? []).map(\.rawValue).joined(separator: "|")
            lines.append(offered == nil ? String(line) : String(line).replacing(spelledFormats, with: spelled))
        }
        return lines.joined(separator: "\n")
    }

    /// The (nested) command the leading words name: `baseline list` of `baseline list [--format ...]`.
    static func command(named words: [String]) -> any ParsableCommand.Type {
        var command: any ParsableCommand.Type = Profctl.self
        for word in words {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            command = sub
        }
        return command
    }

    /// The formats a command's `--format` option offers, read from the option's type.
    static func menu(of command: any ParsableCommand.Type) -> [OutputFormat]? {
        Mirror(reflecting: command.init()).children.lazy.compactMap { child in
            (type(of: child.value) as? any FormatMenuOptionWrapper.Type)?.offered
        }.first
    }

    @Test("a command's menu is read from its --format option's type", arguments: [
        (["report"], TableFormats.formats), (["baseline", "list"], TableFormats.formats),
        (["check"], CheckFormats.formats), (["export"], ExportFormats.formats),
    ])
    func menus(path: [String], formats: [OutputFormat]) {
        #expect(Self.menu(of: Self.command(named: path)) == formats)
        #expect(Self.menu(of: Self.command(named: ["migrate"])) == nil)
    }

    @Test("a stale synopsis is regenerated, the rest of the doc left as it is")
    func regenerates() {
        let doc = "a\n<!-- BEGIN synopsis: x -->\n```\nprofctl export [--format csv|json] [-o FILE]\n```\n<!-- END synopsis -->\nb --format csv|json\n"
        let regenerated = Self.synopsis.regenerated(doc, Self.withMenuFormats)
        #expect(regenerated == doc.replacingOccurrences(of: "[--format csv|json]", with: "[--format chrome-trace|pprof]"))
    }
}

/// ArgumentParser's `@Option` around a `--format` value, as Mirror sees a command's
/// `_format`: its type names the menu.
protocol FormatMenuOptionWrapper {
    static var offered: [OutputFormat] { get }
}

extension Option: FormatMenuOptionWrapper where Value: FormatMenuOption {
    static var offered: [OutputFormat] { Value.offered }
}
