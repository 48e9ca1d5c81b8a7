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
    /// Each command with --format, and the formats it must offer, in the order help lists them.
    static let commands: [([String], [String])] = [
        (["report"], ["table", "markdown", "csv", "json", "html"]),
        (["query", "SELECT 1"], ["table", "markdown", "csv", "json", "html"]),
        (["runs"], ["table", "markdown", "csv", "json", "html"]),
        (["sites"], ["table", "markdown", "csv", "json", "html"]),
        (["compare", "a", "b"], ["table", "markdown", "csv", "json", "html"]),
        (["trend", "--scenario", "lazy-container", "--metric", "m"], ["table", "markdown", "csv", "json", "html"]),
        (["baseline", "list"], ["table", "markdown", "csv", "json", "html"]),
        (["check", "--baseline", "previous"], ["table", "markdown", "junit", "github", "json"]),
        (["export"], ["chrome-trace", "pprof"]),
    ]

    @Test("a name a command does not offer exits 64 and lists exactly the formats it offers", arguments: commands)
    func refusesOthers(command: [String], offered: [String]) {
        for name in ["xml"] + OutputFormat.allCases.map(\.rawValue).filter({ !offered.contains($0) }) {
            do {
                _ = try Profctl.parseAsRoot(command + ["--format", name])
                Issue.record("\(command) --format \(name) parsed without error")
            } catch {
                #expect(Profctl.exitCode(for: error).rawValue == 64)
                let quoted = offered.map { "'\($0)'" }
                // argument-parser's words: "'a' and 'b'", "'a', 'b' or 'c'".
                let choices = quoted.dropLast().joined(separator: ", ") + (quoted.count == 2 ? " and " : " or ") + (quoted.last ?? "")
                #expect(Profctl.fullMessage(for: error).contains("Please provide one of \(choices)."), "\(command) \(name)")
            }
        }
        for name in offered {
            #expect(throws: Never.self) { try Profctl.parseAsRoot(command + ["--format", name]) }
        }
    }

    @Test("every command's --format help is its menu, in words")
    func help() {
        let tables = "table, markdown, csv, json or html"
        let commands: [(any ParsableCommand.Type, String)] = [
            (Report.self, tables + " (tables and charts in one self-contained page)."), (Query.self, tables + "."),
            (Runs.self, tables + "."), (Sites.self, tables + "."), (Compare.self, tables + "."), (TrendCommand.self, tables + "."),
            (Baseline.List.self, tables + "."), (Check.self, "table, markdown, junit, github or json."),
            (Export.self, "chrome-trace or pprof."),
        ]
        for (command, words) in commands {
            let help = command.helpMessage(columns: 400)
            #expect(help.contains("--format <format>") && help.contains(words), "\(command)")
        }
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
            #expect(error?.localizedDescription.contains("table, markdown, junit, github or json") == true)
            #expect(throws: FormatNotOffered.self) { try LeakOutput.render([], format: format) }
        }
    }

    @Test("a caption goes above the table in text formats, and to stderr (nil) where it would break the document")
    func captions() {
        #expect(OutputFormat.table.caption("a") == "a\n\n")
        #expect(OutputFormat.markdown.caption("a") == "**a**\n\n")
        #expect(OutputFormat.markdown.caption("a\nb") == "**a**  \n**b**  \n\n")
        for format in [OutputFormat.csv, .json, .html, .junit, .github, .chromeTrace, .pprof] { #expect(format.caption("a") == nil) }
    }
}
