import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("Scenario files")
struct ScenarioFileTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    static func shippedFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shipped.path).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test("every file shipped in scenarios/ validates")
    func shippedFilesValidate() throws {
        let files = try Self.shippedFiles()
        #expect(files.count >= 5)
        for file in files {
            #expect(throws: Never.self, "\(file)") { _ = try ScenarioFile.load(path: Self.shipped.appendingPathComponent(file).path) }
        }
    }

    @Test("a file's kind, name, repeats, strategies and parameters are read")
    func reads() throws {
        let file = try ScenarioFile.parse("""
            scenario: lazy-list
            name: feed
            repeats: 2
            strategies: [lazy, eager]
            parameters:
              rows: 40
              scroll: down
            """, path: "f.yaml")
        #expect(file.scenario.name == "lazy-list")
        #expect(file.options.runName == "feed" && file.options.repeats == 2)
        #expect(file.options.strategies == ["lazy", "eager"])
        #expect(file.options.parameters == ["rows": .int(40), "scroll": .strings(["down"])])
        let resolved = try file.scenario.resolve(file.options)
        #expect(resolved.strategies == ["eager", "lazy"])
        #expect(resolved.int("viewport") == 10)
    }

    @Test("mistakes are reported with line, column and the valid choices", arguments: [
        ("", 1, 1, "empty"),
        ("scenario: [lazy\n", 2, 1, "YAML syntax"),
        ("- a\n- b\n", 1, 1, "expected a mapping"),
        ("name: x\n", 1, 1, "missing `scenario:`"),
        ("scenario: lazy-lists\n", 1, 11, "known scenarios: lazy-container"),
        ("scenario: lazy-list\nrepeat: 2\n", 2, 1, "valid keys: scenario, name, repeats"),
        ("scenario: lazy-list\nrepeats: 0\n", 2, 10, "out of range"),
        ("scenario: lazy-list\nrepeats: two\n", 2, 10, "whole number"),
        ("scenario: lazy-list\nstrategies: [eager, lazzy]\n", 2, 21, "known: eager, lazy"),
        ("scenario: lazy-list\nstrategies: []\n", 2, 13, "at least one"),
        ("scenario: lazy-list\nparameters:\n  rowz: 3\n", 3, 3, "its parameters: rows, viewport"),
        ("scenario: lazy-list\nparameters:\n  rows: -3\n", 3, 9, "out of range"),
        ("scenario: lazy-list\nparameters:\n  scroll: [down, left]\n", 3, 18, "moves: down, up"),
        ("scenario: lazy-list\nparameters: 5\n", 2, 13, "mapping of name: value"),
        ("scenario: lazy-list\nname: has space\n", 2, 7, "letters, digits"),
        ("scenario: lazy-list\nscenario: identity\n", 1, 1, "'scenario' appears twice"),
    ])
    func mistakes(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try ScenarioFile.parse(text, path: "bad.yaml")
            Issue.record("parsed without error: \(text)")
        } catch let error as ScenarioFileError {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.description.contains(message), "\(error)")
            #expect(error.description.hasPrefix("bad.yaml:\(line):\(column): "))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
