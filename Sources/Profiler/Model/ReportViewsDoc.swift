/// The per-scenario part of docs/schema.md, generated from the report declarations so
/// the document cannot drift from the views (SchemaDocTests compares them).
package enum ReportViewsDoc {
    package static let begin = "<!-- BEGIN report views: generated from the scenarios' declarations; PROFCTL_WRITE_SCHEMA_DOC=1 swift test --disable-xctest --filter SchemaDocTests rewrites it -->"
    package static let end = "<!-- END report views -->"

    /// Markdown for each report: its view, the scenarios that use it, what it shows, and
    /// a table of its columns. `users` maps a report's name to the scenarios reading it.
    package static func markdown(_ reports: [ReportDeclaration], users: [String: [String]]) -> String {
        var text = begin + "\n\n"
        text += """
            One per report a scenario declares (ReportDeclaration); `profctl report` prints them. Each
            has `run_id` first and one row per strategy (or per component and strategy) in the order
            the scenario measured them. Counts and bytes are per repeat. *Gated* columns are metrics of
            `profctl check`: *measured* ones against the baseline, *derived* ones (computed from the
            columns next to them) only against budgets; the others are shown, not gated.


            """
        for report in reports {
            let scenarios = (users[report.name] ?? []).map { "`\($0)`" }.joined(separator: ", ")
            text += "#### `\(report.view)`\n\n"
            text += "Report `\(report.name)`" + (scenarios.isEmpty ? "" : ", of \(scenarios)") + "."
            text += report.byMeasure ? " One row per `bytes_measure` (`requested`, `usable`)." : ""
            text += " " + report.summary + "\n\n"
            text += "| column | unit | better | kind | gated | meaning |\n|---|---|---|---|---|---|\n"
            for column in report.columns {
                let better = column.polarity.map { $0 == .smallerIsBetter ? "smaller" : "larger" } ?? ""
                let kind = column.unit == .label ? "label" : !column.gated ? "shown" : column.role == .primary ? "measured" : "derived"
                text += "| `\(column.name)` | \(column.unit.rawValue) | \(better) | \(kind) | \(column.gated ? "yes" : "no") | \(column.summary) |\n"
            }
            text += "\n"
        }
        return text + end
    }
}
