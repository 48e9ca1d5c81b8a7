import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// Scenario and budgets files are read with work bounded by their size, and every bad
/// file is refused with the position of the offending byte (BoundedYAML).
@Suite("Bounded YAML reading")
struct BoundedYAMLTests {
    /// Seven levels of nine aliases, the last used as a mapping key: about 400 bytes whose
    /// tree has 9^7 leaves. Yams' duplicate-key check hashes all of them.
    static let aliasBomb: String = {
        var lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
        let names = ["a", "b", "c", "d", "e", "f", "g"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
        }
        lines.append("? [*g, *g]\n: 1")
        return lines.joined(separator: "\n") + "\n"
    }()

    /// Seconds `body` took. The bound asserted is loose (the machine is shared): the point
    /// is catching work that grows exponentially, which takes minutes, not a second.
    func seconds(_ body: () -> Void) -> Double {
        let start = Date()
        body()
        return Date().timeIntervalSince(start)
    }

    func error(_ body: () throws -> Void) -> ScenarioFileError? {
        do {
            try body()
            return nil
        } catch let error as ScenarioFileError {
            return error
        } catch {
            Issue.record("not a ScenarioFileError: \(error)")
            return nil
        }
    }

    @Test("nested aliases used as a mapping key are refused at the first anchor, at once, in both kinds of file")
    func aliasBomb() throws {
        #expect(Self.aliasBomb.utf8.count < 450)
        var scenarioError: ScenarioFileError?, budgetError: ScenarioFileError?
        let elapsed = seconds {
            scenarioError = error { _ = try ScenarioFile.parse(Self.aliasBomb, path: "bomb.yaml") }
            budgetError = error { _ = try Budget.parse(Self.aliasBomb, path: "bomb.yaml") }
        }
        #expect(elapsed < 5)
        for found in [scenarioError, budgetError] {
            let found = try #require(found)
            #expect(found.line == 1 && found.column == 4, "\(found)")
            #expect(found.message.contains("anchors"), "\(found)")
        }
    }

    @Test("an alias in a flow list, after a comment-like # inside quotes, is still found")
    func aliasAfterQuotedHash() throws {
        let text = "scenario: lazy-list\nstrategies: [\"eager #\", *x]\n"
        let found = try #require(error { _ = try ScenarioFile.parse(text, path: "s.yaml") })
        #expect(found.line == 2 && found.column == 25, "\(found)")
        #expect(found.message.contains("aliases"), "\(found)")
    }

    @Test("a & or * in a comment is fine")
    func starsInComments() throws {
        let file = try ScenarioFile.parse("# R&D: 2 * 3\nscenario: lazy-list  # *not* an alias\nrepeats: 2\n", path: "s.yaml")
        #expect(file.options.repeats == 2)
    }

    @Test("control characters and NUL are reported where they are", arguments: [
        ("scenario: lazy-list\nname: a\u{1}b\n", 2, 8),
        ("scenario: lazy-list\nname: a\u{0}b\n", 2, 8),
        ("scenario: lazy-list\nname: é\u{7F}\n", 2, 8),
        ("scenario: lazy-list\nrepeats: 2\n  \u{1B}[31m\n", 3, 3),
    ])
    func controlCharacters(text: String, line: Int, column: Int) throws {
        let found = try #require(error { _ = try ScenarioFile.parse(text, path: "s.yaml") })
        #expect(found.line == line && found.column == column, "\(found)")
        #expect(found.message.contains("control character"), "\(found)")
        let budget = try #require(error { _ = try Budget.parse(text, path: "b.yaml") })
        #expect(budget.line == line && budget.column == column, "\(budget)")
    }

    @Test("invalid UTF-8 is reported at its byte's line and column")
    func invalidUTF8() throws {
        let folder = try TemporaryDatabase()
        let path = folder.folder.appendingPathComponent("latin1.yaml").path
        var bytes = Array("scenario: lazy-list\nname: ab".utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array("c\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for found in [error { _ = try ScenarioFile.load(path: path) }, error { _ = try Budget.load(path: path) }] {
            let found = try #require(found)
            #expect(found.line == 2 && found.column == 9, "\(found)")
            #expect(found.message.contains("UTF-8"), "\(found)")
        }
    }

    @Test("a file over 1 MiB is refused without being parsed")
    func sizeCap() throws {
        let folder = try TemporaryDatabase()
        let path = folder.folder.appendingPathComponent("big.yaml").path
        // Valid as YAML and as a scenario file: only its size is wrong.
        let text = "scenario: lazy-list\n" + String(repeating: "# padding padding padding padding padding padding padding\n", count: 20_000)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(text.utf8.count > 1 << 20)
        for found in [error { _ = try ScenarioFile.load(path: path) }, error { _ = try Budget.load(path: path) }] {
            let found = try #require(found)
            #expect(found.message.contains("1 MiB"), "\(found)")
            #expect(found.line > 1, "\(found)")
        }
    }

    @Test("more than 5,000 keys and list items are refused before Yams composes them, at the one too many")
    func entryCap() throws {
        let wide = "scenario: lazy-list\nstrategies:\n" + String(repeating: "  - eager\n", count: 100_000)
        let flow = "budgets: [" + Array(repeating: "{scenario: s, metric: m, max: 1}", count: 10_000).joined(separator: ", ") + "]\n"
        var wideError: ScenarioFileError?, flowError: ScenarioFileError?
        let elapsed = seconds {
            wideError = error { _ = try ScenarioFile.parse(wide, path: "wide.yaml") }
            flowError = error { _ = try Budget.parse(flow, path: "flow.yaml") }
        }
        #expect(elapsed < 5)
        // `scenario:` and `strategies:` are two entries, so item 4,999 is the 5,001st.
        let found = try #require(wideError)
        #expect(found.line == 2 + 4_999 && found.column == 3, "\(found)")
        #expect(found.message.contains("5000 keys and list items"), "\(found)")
        #expect(try #require(flowError).line == 1)
    }

    @Test("deep documents, and documents just under the entry cap, are read or refused quickly")
    func largeButBounded() throws {
        let deep = "scenario: " + String(repeating: "[", count: 500_000) + "\n"
        // Five entries for the budget, 4,900 keys beside it: 4,905 in all.
        let keys = "budgets:\n  - scenario: s\n    metric: m\n    max: 1\n" + (0..<4_900).map { "k\($0): 1\n" }.joined()
        var deepError: ScenarioFileError?, budgets: [Budget]?
        let elapsed = seconds {
            deepError = error { _ = try ScenarioFile.parse(deep, path: "deep.yaml") }
            budgets = try? Budget.parse(keys, path: "keys.yaml")
        }
        #expect(elapsed < 5)
        let found = try #require(deepError)
        #expect(found.line == 1 && found.column > 1, "\(found)")
        #expect(budgets?.count == 1)
    }

    @Test("messages quote a short excerpt of a huge value, never the value", arguments: [
        "scenario: lazy-list\nname: LONG\n",
        "scenario: lazy-list\nLONG: 1\n",
        "scenario: LONG\n",
        "scenario: lazy-list\nstrategies: [LONG]\n",
        "scenario: lazy-list\nparameters:\n  LONG: 1\n",
        "scenario: lazy-list\nparameters:\n  scroll: [LONG]\n",
    ])
    func shortExcerpts(template: String) throws {
        let text = template.replacingOccurrences(of: "LONG", with: String(repeating: "x", count: 900_000))
        let found = try #require(error { _ = try ScenarioFile.parse(text, path: "s.yaml") })
        #expect(found.description.count < 400, "\(found.description.prefix(400))")
        #expect(found.line >= 1 && found.column >= 1)
    }

    @Test("budgets: messages quote a short excerpt of a huge value", arguments: [
        "budgets:\n  - LONG: 1\n",
        "budgets:\n  - scenario: LONG\n    metric: m\n    max: 1\n",
        "budgets:\n  - scenario: s\n    metric: m\n    max: LONG\n",
    ])
    func budgetExcerpts(template: String) throws {
        let text = template.replacingOccurrences(of: "LONG", with: String(repeating: "y", count: 900_000))
        let found = try #require(error { _ = try Budget.parse(text, path: "b.yaml") })
        #expect(found.description.count < 400, "\(found.description.prefix(400))")
    }

    @Test("numbers are plain decimals: !!str, quotes, base 60, octal, hex, underscores and a + sign are refused", arguments: [
        ("scenario: lazy-list\nrepeats: !!str 2\n", 2, 10),
        ("scenario: lazy-list\nrepeats: '2'\n", 2, 10),
        ("scenario: lazy-list\nrepeats: 1:30\n", 2, 10),
        ("scenario: lazy-list\nrepeats: 010\n", 2, 10),
        ("scenario: lazy-list\nrepeats: 0x2\n", 2, 10),
        ("scenario: lazy-list\nrepeats: 1_0\n", 2, 10),
        ("scenario: lazy-list\nrepeats: +2\n", 2, 10),
        ("scenario: lazy-list\nparameters:\n  rows: 1:30\n", 3, 9),
        ("scenario: lazy-list\nparameters:\n  rows: !!int 90\n", 3, 9),
    ])
    func strictIntegers(text: String, line: Int, column: Int) throws {
        let found = try #require(error { _ = try ScenarioFile.parse(text, path: "s.yaml") })
        #expect(found.line == line && found.column == column, "\(found)")
        #expect(found.message.contains("must be a whole number"), "\(found)")
    }

    @Test("the plain forms still read", arguments: [("2", 2), ("10000", 10_000), ("0", nil)])
    func plainIntegers(text: String, expected: Int?) throws {
        let parsed = error { _ = try ScenarioFile.parse("scenario: lazy-list\nrepeats: \(text)\n", path: "s.yaml") }
        if let expected {
            #expect(parsed == nil)
            #expect(try ScenarioFile.parse("scenario: lazy-list\nrepeats: \(text)\n", path: "s.yaml").options.repeats == expected)
        } else {
            #expect(parsed?.message.contains("out of range") == true, "\(String(describing: parsed))")
        }
    }

    @Test("budget limits are plain decimals", arguments: ["1:30", "!!str 2", "'2'", ".inf", ".nan", "0x10", "1_000", "010", "+2"])
    func strictBudgetNumbers(value: String) throws {
        let text = "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: \(value)\n"
        let found = try #require(error { _ = try Budget.parse(text, path: "b.yaml") })
        #expect(found.line == 4 && found.column == 10, "\(found)")
        #expect(found.message.contains("must be a number"), "\(found)")
    }

    @Test("budget limits in decimal, fraction and exponent forms read", arguments: [("800", 800.0), ("-1.5", -1.5), ("2.5e3", 2500.0), ("0.25", 0.25)])
    func plainBudgetNumbers(value: String, expected: Double) throws {
        let text = "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: \(value)\n"
        #expect(try Budget.parse(text, path: "b.yaml").first?.max == expected)
    }
}
