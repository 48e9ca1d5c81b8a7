import Foundation
import ProfilerModel
import ProfilerOutputs

/// Formats leak verdicts in every `check` format; each row names its scenario, component
/// and strategy. Only formats: every figure comes from the verdicts.
package enum LeakOutput {
    /// `unchecked`: scenarios a leak budget names that have no run to check (they fail as missing).
    /// Throws for a format `CheckFormats` does not offer.
    package static func render(_ results: [LeakCheckResult], unchecked: [UncheckedScenario] = [], format: OutputFormat) throws -> String {
        switch format {
        case .junit: return junit(results, unchecked)
        case .github: return github(results, unchecked)
        case .json: return json(results, unchecked)
        default:
            try CheckFormats.requireText(format)
            return try text(results, unchecked, format: format)
        }
    }

    /// `leaks` over `missing` (a run with nothing judged, a budget's scenario without a run) over `pass`.
    /// What a `check --leaks` comes to: its exit code, and the word every format prints.
    package enum Outcome: String, Sendable {
        case pass, leaks, missing
    }

    package static func outcome(_ results: [LeakCheckResult], _ unchecked: [UncheckedScenario] = []) -> Outcome {
        if results.contains(where: \.fails) { return .leaks }
        if results.contains(where: \.nothingJudged) || unchecked.contains(where: \.fails) { return .missing }
        return .pass
    }

    static func title(_ result: LeakCheckResult) -> String {
        "\(result.run.scenario) run \(result.run.runID.prefix(8)) leaks: \(result.fails ? "FAIL" : result.nothingJudged ? "MISSING" : "PASS")"
    }

    static func growthValue(_ v: LeakVerdict) -> SQLValue {
        v.growth.map { .real(($0.bytesPerRound * 100).rounded() / 100) } ?? .null
    }

    /// The verdicts as rows: component, strategy, rounds, retained bytes and blocks,
    /// intended bytes, growth per round, status, note.
    package static func table(_ verdicts: [LeakVerdict]) -> ResultTable {
        ResultTable(columns: ["component", "strategy", "rounds", "retained_bytes", "retained_blocks", "intended_bytes",
                              "growth_bytes_per_round", "status", "note"],
                    rows: verdicts.map { v in
                        [.text(v.component), .text(v.strategy), .integer(Int64(v.rounds)), .integer(v.retainedBytes),
                         .integer(v.retainedBlocks), .integer(v.intendedBytes), growthValue(v), .text(v.status.rawValue), .text(v.note)]
                    })
    }

    static func text(_ results: [LeakCheckResult], _ unchecked: [UncheckedScenario], format: OutputFormat) throws -> String {
        let heading = { format.caption($0) ?? "" }
        var sections = try results.map { result in
            var section = heading(title(result)) + (try format.render(table(result.verdicts))) + "\n"
            section += sitesText(result.verdicts) + typesText(result.verdicts)
            for note in result.notes + [result.growthNotJudged].compactMap({ $0 }) { section += "note: \(note)\n" }
            return section
        }
        if !unchecked.isEmpty {
            sections.append(heading("not checked") + unchecked.map { "\($0.scenario): \($0.status): \($0.note)\n" }.joined())
        }
        sections.append(heading("overall: \(outcome(results, unchecked).rawValue.uppercased()) (\(results.count) run\(results.count == 1 ? "" : "s") checked for leaks)"))
        return sections.joined(separator: "\n")
    }

    /// Sites listed per verdict in the text formats.
    static let sitesShown = 5

    /// Under the table: for each verdict that left bytes behind, the functions that
    /// allocated them (runs recorded with --sites), largest first.
    static func sitesText(_ verdicts: [LeakVerdict]) -> String {
        var out = ""
        for v in verdicts {
            guard let sites = v.sites, !sites.isEmpty else { continue }
            out += "what \(v.component) / \(v.strategy) left behind, by allocating function:\n"
            for site in sites.prefix(sitesShown) {
                out += "  \(site.bytes) B in \(site.blocks) blocks  \(site.function)"
                    + (site.location.isEmpty ? "" : "  (\(site.location))") + "\n"
            }
            if sites.count > sitesShown { out += "  and \(sites.count - sitesShown) more sites of \(v.component) / \(v.strategy)\n" }
        }
        return out
    }

    /// Under the table: for each verdict that left bytes behind in a run recorded with
    /// --types, the types of what stayed (or why they are not named).
    static func typesText(_ verdicts: [LeakVerdict]) -> String {
        var out = ""
        for v in verdicts {
            if let types = v.types, !types.isEmpty {
                out += "what \(v.component) / \(v.strategy) left behind, by type:\n"
                for t in types { out += "  \(t.objects) \(t.type) (\(t.bytes) B)\n" }
                if let note = v.typesNote { out += "  (\(note))\n" }
            } else if let note = v.typesNote {
                out += "what \(v.component) / \(v.strategy) left behind: \(note)\n"
            }
        }
        return out
    }

    static func xml(_ text: String) -> String { CheckOutput.xml(text) }

    static func describe(_ result: LeakCheckResult, _ v: LeakVerdict) -> String {
        "\(result.run.scenario) \(v.component) \(v.strategy): \(v.status.rawValue); \(v.note)"
            + (v.stayedTypes().map { "; " + $0 } ?? "") + (v.allocatedBy().map { "; " + $0 } ?? "")
    }

    /// JUnit XML: a test suite per run, a test case per component and strategy.
    static func junit(_ results: [LeakCheckResult], _ unchecked: [UncheckedScenario]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"profctl check --leaks\">\n"
        for result in results {
            let failures = result.verdicts.filter(\.fails).count
            out += "  <testsuite name=\"\(xml(result.run.scenario)) \(result.run.runID.prefix(8)) leaks\" tests=\"\(result.verdicts.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
            for v in result.verdicts {
                out += "    <testcase classname=\"\(xml(result.run.scenario + "." + v.component))\" name=\"\(xml(v.strategy))\">"
                out += v.fails ? "<failure message=\"\(xml(describe(result, v)))\" type=\"\(v.status.rawValue)\">\(xml(sitesText([v]) + typesText([v])))</failure>"
                    : "<system-out>\(xml(describe(result, v)))</system-out>"
                out += "</testcase>\n"
            }
            let notes = result.notes + [result.growthNotJudged].compactMap { $0 }
            if !notes.isEmpty {
                out += "    <system-out>\(xml(notes.map { "note: " + $0 }.joined(separator: "\n")))</system-out>\n"
            }
            out += "  </testsuite>\n"
        }
        if !unchecked.isEmpty {
            out += "  <testsuite name=\"not checked\" tests=\"\(unchecked.count)\" failures=\"\(unchecked.filter(\.fails).count)\" errors=\"0\" skipped=\"\(unchecked.filter { !$0.fails }.count)\">\n"
            for u in unchecked {
                out += "    <testcase classname=\"\(xml(u.scenario))\" name=\"leaks\">"
                    + (u.fails ? "<failure message=\"\(xml(u.note))\" type=\"\(u.status)\"/>" : "<skipped message=\"\(xml(u.note))\"/>") + "</testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// GitHub Actions workflow commands: an error per failing component and strategy.
    static func github(_ results: [LeakCheckResult], _ unchecked: [UncheckedScenario]) -> String {
        var lines: [String] = []
        for result in results {
            for v in result.verdicts where v.fails || v.status == .allowed {
                let message = describe(result, v).replacingOccurrences(of: "%", with: "%25")
                lines.append("::\(v.fails ? "error" : "warning") title=profctl check --leaks \(result.run.scenario)::\(message)")
            }
            for note in result.notes {
                lines.append("::warning title=profctl check --leaks \(result.run.scenario)::\(note.replacingOccurrences(of: "%", with: "%25"))")
            }
            if let growth = result.growthNotJudged {
                lines.append("::notice title=profctl check --leaks \(result.run.scenario)::\(growth)")
            }
            lines.append("::notice title=profctl check --leaks::\(title(result))")
        }
        for u in unchecked {
            lines.append("::\(u.fails ? "error" : "warning") title=profctl check --leaks \(u.scenario)::\(u.scenario) not checked (\(u.status)): \(u.note.replacingOccurrences(of: "%", with: "%25"))")
        }
        let overall = outcome(results, unchecked)
        lines.append("::\(overall == .pass ? "notice" : "error") title=profctl check --leaks::overall: \(overall.rawValue.uppercased())")
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ results: [LeakCheckResult], _ unchecked: [UncheckedScenario]) -> String {
        let checks = results.map { result -> String in
            let verdicts = result.verdicts.map { v in
                let fields: [(String, String)] = [
                    ("scenario", JSONText.string(result.run.scenario)), ("component", JSONText.string(v.component)),
                    ("strategy", JSONText.string(v.strategy)), ("rounds", String(v.rounds)),
                    ("retained_bytes", String(v.retainedBytes)), ("retained_blocks", String(v.retainedBlocks)),
                    ("intended_bytes", String(v.intendedBytes)), ("intended_blocks", String(v.intendedBlocks)),
                    ("growth_bytes_per_round", JSONText.value(growthValue(v))),
                    ("growing_rounds", v.growth.map { String($0.growingRounds) } ?? "null"),
                    ("measured_rounds", v.growth.map { String($0.measuredRounds) } ?? "null"),
                    ("status", JSONText.string(v.status.rawValue)), ("fails", v.fails ? "true" : "false"),
                    ("note", JSONText.string(v.note)),
                    ("sites", v.sites.map { sites in
                        "[" + sites.map { site in
                            "{\"function\": \(JSONText.string(site.function)), \"location\": \(JSONText.string(site.location)), "
                                + "\"bytes\": \(site.bytes), \"blocks\": \(site.blocks)}"
                        }.joined(separator: ", ") + "]"
                    } ?? "null"),
                    ("types", v.types.map { types in
                        "[" + types.map { "{\"type\": \(JSONText.string($0.type)), \"objects\": \($0.objects), \"bytes\": \($0.bytes)}" }
                            .joined(separator: ", ") + "]"
                    } ?? "null"),
                    ("types_note", v.typesNote.map(JSONText.string) ?? "null"),
                ]
                return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
            return """
                {"run_id": \(JSONText.string(result.run.runID)), "scenario": \(JSONText.string(result.run.scenario)), \
                "outcome": \(JSONText.string(result.outcome.rawValue)), \
                "notes": [\(result.notes.map(JSONText.string).joined(separator: ", "))], \
                "growth_not_judged": \(result.growthNotJudged.map(JSONText.string) ?? "null"),
                "verdicts": [\n    \(verdicts.joined(separator: ",\n    "))\n  ]}
                """
        }
        let notChecked = unchecked.map { u in
            "{\"scenario\": \(JSONText.string(u.scenario)), \"reason\": \(JSONText.string(u.reason.rawValue)), "
                + "\"status\": \(JSONText.string(u.status)), \"fails\": \(u.fails), \"note\": \(JSONText.string(u.note))}"
        }
        return "{\"outcome\": \(JSONText.string(outcome(results, unchecked).rawValue)),\n\"leaks\": [\n  " + checks.joined(separator: ",\n  ")
            + "\n],\n\"unchecked\": [" + notChecked.joined(separator: ", ") + "]}\n"
    }
}
