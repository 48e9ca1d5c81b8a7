import ArgumentParser
import Foundation
import Testing
@testable import ProfctlCommands
import Profiler
import ProfilerCLI

/// One format type (OutputFormat) and the menus that offer it: each command's --format
/// help and its error for any other name come from the menu, never from a typed list.
@Suite("Output formats")
struct FormatMenuTests {
    /// Each command with --format, and the menu it must offer (a format added to a menu
    /// needs no change here: the menus, not typed names, are what is held).
    static let commands: [([String], [String])] = [
        (["report"], TableFormats.formats), (["query", "SELECT 1"], TableFormats.formats), (["runs"], TableFormats.formats),
        (["sites"], TableFormats.formats), (["compare", "a", "b"], TableFormats.formats),
        (["trend", "--scenario", "lazy-container", "--metric", "m"], TableFormats.formats), (["baseline", "list"], TableFormats.formats),
        (["check", "--baseline", "previous"], CheckFormats.formats), (["export"], ExportFormats.formats),
    ].map { ($0.0, $0.1.map(\.rawValue)) }

    @Test("a name a command does not offer exits 64 and lists exactly the formats it offers", arguments: commands)
    func refusesOthers(command: [String], offered: [String]) {
        for name in ["xml"] + OutputFormat.allCases.map(\.rawValue).filter({ !offered.contains($0) }) {
            do {
                _ = try Profctl.parseAsRoot(command + ["--format", name])
                Issue.record("\(command) --format \(name) parsed without error")
            } catch {
                #expect(Profctl.exitCode(for: error).rawValue == 64)
                let quoted = offered.map { "'\($0)'" }
                // argument-parser's words: "'a' and 'b'", "'a', 'b' or 'c'"; past a few
                // choices, a list of "  - a" lines instead (a sixth table format is one).
                let choices = quoted.dropLast().joined(separator: ", ") + (quoted.count == 2 ? " and " : " or ") + (quoted.last ?? "")
                let listed = "Please provide one of the following:\n" + offered.map { "  - \($0)" }.joined(separator: "\n") + "\n"
                let message = Profctl.fullMessage(for: error)
                #expect(message.contains("Please provide one of \(choices).") || message.contains(listed), "\(command) \(name)")
            }
        }
        for name in offered {
            #expect(throws: Never.self) { try Profctl.parseAsRoot(command + ["--format", name]) }
        }
    }

    @Test("every command's --format help is its menu, in words")
    func help() {
        // The words are built from the menus, so this holds which menu each command offers
        // and that its help says so; the sentences themselves are pinned once, below.
        let tables = OutputFormat.list(TableFormats.formats)
        let commands: [(any ParsableCommand.Type, String)] = [
            (Report.self, tables + " (tables and charts in one self-contained page)."), (Query.self, tables + "."),
            (Runs.self, tables + "."), (Sites.self, tables + "."), (Compare.self, tables + "."), (TrendCommand.self, tables + "."),
            (Baseline.List.self, tables + "."), (Check.self, OutputFormat.list(CheckFormats.formats) + "."),
            (Export.self, OutputFormat.list(ExportFormats.formats) + "."),
        ]
        for (command, words) in commands {
            let help = command.helpMessage(columns: 400)
            #expect(help.contains("--format <format>") && help.contains(words), "\(command)")
        }
    }

    @Test("a menu in words: commas and a last 'or', as help and errors print it")
    func listInWords() {
        #expect(OutputFormat.list([.table, .markdown, .csv]) == "table, markdown or csv")
        #expect(OutputFormat.list([.chromeTrace, .pprof]) == "chrome-trace or pprof")
        #expect(OutputFormat.list([.json]) == "json")
        #expect(OutputFormat.list([]) == "")
    }

    @Test("every format a menu offers renders its kind of result; the others are refused with the choices")
    func rendering() throws {
        let table = ResultTable(columns: ["k", "n"], rows: [[.text("x"), .integer(5)]])
        for format in TableFormats.formats {
            #expect(try !format.render(table).isEmpty)
        }
        for format in CheckFormats.formats {
            #expect(try !CheckOutput.render([], format: format).isEmpty)
            #expect(try !LeakOutput.render([], format: format).isEmpty)
        }
        for format in OutputFormat.allCases where !TableFormats.formats.contains(format) {
            #expect(throws: FormatNotOffered.self) { try format.render(table) }
        }
        for format in OutputFormat.allCases where !CheckFormats.formats.contains(format) {
            let error = #expect(throws: FormatNotOffered.self) { try CheckOutput.render([], format: format) }
            #expect(error?.localizedDescription.contains(OutputFormat.list(CheckFormats.formats)) == true)
            #expect(throws: FormatNotOffered.self) { try LeakOutput.render([], format: format) }
        }
    }

    @Test("a caption goes above the table in text formats, and to stderr (nil) where it would break the document")
    func captions() {
        #expect(OutputFormat.table.caption("a") == "a\n\n")
        #expect(OutputFormat.markdown.caption("a") == "**a**\n\n")
        #expect(OutputFormat.markdown.caption("a\nb") == "**a**  \n**b**  \n\n")
        // The one deliberate pin: only the text formats print a caption above the table.
        for format in OutputFormat.allCases where format != .table && format != .markdown { #expect(format.caption("a") == nil) }
    }
}
