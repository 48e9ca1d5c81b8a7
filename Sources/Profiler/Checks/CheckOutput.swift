import Foundation
import ProfilerModel
import ProfilerOutputs

/// The formats check results print in (`check --leaks` too).
package enum CheckFormats: FormatMenu {
    package static let formats: [OutputFormat] = [.table, .markdown, .junit, .github, .json]

    /// Checks that `format` is one of the text formats check offers (a caption and a table
    /// per run): what both the budget and the leak renderers print outside their own
    /// junit, github and json forms.
    static func requireText(_ format: OutputFormat) throws {
        guard formats.contains(format), format.caption("") != nil else {
            throw FormatNotOffered(format: format, offered: formats)
        }
    }
}

/// Formats check results. Only formats: every figure comes from the verdicts.
package enum CheckOutput {
    /// The checked runs, then the scenarios that could not be checked, then (in every
    /// format) the overall outcome the exit code follows.
    /// Throws for a format `CheckFormats` does not offer.
    package static func render(_ results: [CheckResult], unchecked: [UncheckedScenario] = [], format: OutputFormat,
                              advice: CheckAdvice = .library) throws -> String {
        switch format {
        case .junit: return junit(results, unchecked)
        case .github: return github(results, unchecked)
        case .json: return json(results, unchecked)
        default:
            try CheckFormats.requireText(format)
            return try text(results, unchecked, format: format, advice: advice)
        }
    }

    static func overallLine(_ results: [CheckResult], _ unchecked: [UncheckedScenario]) -> String {
        "overall: \(CheckOverall(results, unchecked: unchecked).rawValue.uppercased())"
            + " (\(results.count) run\(results.count == 1 ? "" : "s") checked, \(unchecked.count) scenario\(unchecked.count == 1 ? "" : "s") not checked)"
    }

    /// The scenarios not checked as rows: scenario, status, note.
    static func uncheckedTable(_ unchecked: [UncheckedScenario]) -> ResultTable {
        ResultTable(columns: ["scenario", "status", "note"],
                    rows: unchecked.map { [.text($0.scenario), .text($0.status), .text($0.note)] })
    }

    static func title(_ result: CheckResult) -> String {
        let against = result.baselines.isEmpty ? "budgets only"
            : "against " + result.baselines.map { String($0.runID.prefix(8)) }.joined(separator: ", ")
        return "\(result.run.scenario) run \(result.run.runID.prefix(8)) \(against): \(result.outcome.rawValue.uppercased())"
    }

    static func number(_ value: Double?) -> SQLValue { value.map { .real(($0 * 100).rounded() / 100) } ?? .null }

    static func percent(_ verdict: Verdict) -> SQLValue {
        verdict.relativeChange.map { .real(($0 * 10_000).rounded() / 100) } ?? .null
    }

    /// The verdicts as rows: metric, component, strategy, baseline, current, change, change %, status, note.
    package static func table(_ verdicts: [Verdict]) -> ResultTable {
        ResultTable(columns: ["metric", "component", "strategy", "baseline", "current", "change", "change %", "status", "note"],
                    rows: verdicts.map { v in
                        [.text(v.key.name), .text(v.key.component), .text(v.key.strategy), number(v.baseline), number(v.current),
                         number(v.change), percent(v), .text(v.status.rawValue), .text(v.note)]
                    })
    }

    static func text(_ results: [CheckResult], _ unchecked: [UncheckedScenario], format: OutputFormat, advice: CheckAdvice) throws -> String {
        let heading = { format.caption($0) ?? "" }
        var sections = try results.map { result in
            let counts = Dictionary(grouping: result.verdicts, by: \.status).map { "\($0.value.count) \($0.key.rawValue)" }.sorted()
            let summary = "\(result.verdicts.count) metrics: " + (counts.isEmpty ? "none gated" : counts.joined(separator: ", "))
            let notable = result.notable
            var undecided = result.verdicts.contains { $0.status == .inconclusive }
                ? "latencies: too few repeats to test; \(advice.moreRepeats) to gate them\n" : ""
            for note in result.notes { undecided += "note: \(note)\n" }
            if result.verdicts.contains(where: { $0.status == .missing && $0.fails }) {
                undecided += "missing metrics fail the check: record what the baseline or budget has, or \(advice.allowMissing)\n"
            }
            return heading(title(result)) + (notable.isEmpty ? "" : try format.render(table(notable)) + "\n") + summary + "\n" + undecided
        }
        if !unchecked.isEmpty {
            sections.append(heading("not checked") + (try format.render(uncheckedTable(unchecked))))
        }
        sections.append(heading(overallLine(results, unchecked)))
        return sections.joined(separator: "\n")
    }

    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func describe(_ v: Verdict) -> String {
        let values = "\(v.baseline.map(SQLValue.numberText) ?? "-") -> \(v.current.map(SQLValue.numberText) ?? "-")"
        let change = v.relativeChange.map { String(format: " (%+.2f%%)", $0 * 100) } ?? ""
        return "\(v.key): \(values)\(change), \(v.status.rawValue); \(v.note)"
    }

    /// JUnit XML: a test suite per checked run, a test case per gated metric.
    static func junit(_ results: [CheckResult], _ unchecked: [UncheckedScenario]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"profctl check\">\n"
        for result in results {
            let failures = result.verdicts.filter(\.fails).count
            let skipped = result.verdicts.filter { $0.status == .inconclusive }.count
            out += "  <testsuite name=\"\(xml(result.run.scenario)) \(result.run.runID.prefix(8))\" tests=\"\(result.verdicts.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
            for v in result.verdicts {
                let classname = xml([v.key.scenario, v.key.component, v.key.strategy].filter { !$0.isEmpty }.joined(separator: "."))
                out += "    <testcase classname=\"\(classname)\" name=\"\(xml(v.key.name))\">"
                switch v.status {
                case _ where v.fails: out += "<failure message=\"\(xml(describe(v)))\" type=\"\(v.status.rawValue)\"/>"
                case .inconclusive: out += "<skipped message=\"\(xml(v.note))\"/>"
                default: out += "<system-out>\(xml(describe(v)))</system-out>"
                }
                out += "</testcase>\n"
            }
            if !result.notes.isEmpty {
                out += "    <system-out>\(xml(result.notes.map { "note: " + $0 }.joined(separator: "\n")))</system-out>\n"
            }
            out += "  </testsuite>\n"
        }
        // A scenario not checked is a test case too: failing when it fails the check, else skipped.
        if !unchecked.isEmpty {
            let failures = unchecked.filter(\.fails).count
            out += "  <testsuite name=\"not checked\" tests=\"\(unchecked.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(unchecked.count - failures)\">\n"
            for u in unchecked {
                out += "    <testcase classname=\"\(xml(u.scenario))\" name=\"\(u.reason.rawValue)\">"
                out += u.fails ? "<failure message=\"\(xml(u.note))\" type=\"\(u.status)\"/>" : "<skipped message=\"\(xml(u.note))\"/>"
                out += "</testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// GitHub Actions workflow commands: errors for regressions, notices for improvements.
    static func github(_ results: [CheckResult], _ unchecked: [UncheckedScenario]) -> String {
        var lines: [String] = []
        for result in results {
            for v in result.notable {
                let level = v.fails ? "error" : ([.improvement, .context].contains(v.status) ? "notice" : "warning")
                let message = describe(v).replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\n", with: "%0A")
                lines.append("::\(level) title=profctl check \(result.run.scenario)::\(message)")
            }
            for note in result.notes {
                lines.append("::warning title=profctl check \(result.run.scenario)::\(note.replacingOccurrences(of: "%", with: "%25"))")
            }
            lines.append("::notice title=profctl check::\(title(result))")
        }
        for u in unchecked {
            let message = "\(u.scenario) not checked (\(u.status)): \(u.note)".replacingOccurrences(of: "%", with: "%25")
            lines.append("::\(u.fails ? "error" : "warning") title=profctl check \(u.scenario)::\(message)")
        }
        let overall = CheckOverall(results, unchecked: unchecked)
        lines.append("::\(overall == .pass || overall == .improvement ? "notice" : "error") title=profctl check::\(overallLine(results, unchecked))")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ results: [CheckResult], _ unchecked: [UncheckedScenario]) -> String {
        let checks = results.map { result -> String in
            let verdicts = result.verdicts.map { v in
                let fields: [(String, String)] = [
                    ("scenario", JSONText.string(v.key.scenario)), ("component", JSONText.string(v.key.component)),
                    ("strategy", JSONText.string(v.key.strategy)), ("metric", JSONText.string(v.key.name)),
                    ("polarity", JSONText.string(v.polarity.rawValue)), ("baseline", JSONText.value(number(v.baseline))),
                    ("current", JSONText.value(number(v.current))), ("change", JSONText.value(number(v.change))),
                    ("change_pct", JSONText.value(percent(v))), ("status", JSONText.string(v.status.rawValue)),
                    ("fails", v.fails ? "true" : "false"),
                    ("note", JSONText.string(v.note)),
                ]
                return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
            return """
                {"run_id": \(JSONText.string(result.run.runID)), "scenario": \(JSONText.string(result.run.scenario)), \
                "baselines": [\(result.baselines.map { JSONText.string($0.runID) }.joined(separator: ", "))], \
                "outcome": \(JSONText.string(result.outcome.rawValue)), \
                "notes": [\(result.notes.map(JSONText.string).joined(separator: ", "))],
                "verdicts": [\n    \(verdicts.joined(separator: ",\n    "))\n  ]}
                """
        }
        let notChecked = unchecked.map { u in
            "{\"scenario\": \(JSONText.string(u.scenario)), \"reason\": \(JSONText.string(u.reason.rawValue)), "
                + "\"status\": \(JSONText.string(u.status)), \"fails\": \(u.fails), \"note\": \(JSONText.string(u.note))}"
        }
        return "{\"outcome\": \(JSONText.string(CheckOverall(results, unchecked: unchecked).rawValue)),\n"
            + "\"checks\": [\n  " + checks.joined(separator: ",\n  ") + "\n],\n"
            + "\"unchecked\": [" + (notChecked.isEmpty ? "" : "\n  " + notChecked.joined(separator: ",\n  ") + "\n") + "]}\n"
    }
}
