/// The built-in scenarios as docs/cli.md ("scenarios") and docs/scenario-format.md
/// ("Kinds and their parameters") list them, generated from the declarations, as
/// `profctl scenarios --verbose` prints them, so a new scenario (or a changed default)
/// cannot leave the docs behind: GeneratedDocsTests compares each doc's part between its
/// markers with these tables and names the command that rewrites it.
package enum ScenarioDocTables {
    /// docs/cli.md: one row per scenario with what it measures, its strategies, the one
    /// savings are measured against, and its report's view.
    package static func overview(_ scenarios: [any Scenario]) -> String {
        var text = "| scenario | what it measures | strategies | baseline | report |\n|---|---|---|---|---|\n"
        for scenario in scenarios {
            let strategies = scenario.strategies.map { "`\($0)`" }.joined(separator: ", ")
            text += "| `\(scenario.name)` | \(cell(scenario.summary)) | \(strategies) | `\(scenario.baselineStrategy)` | `\(scenario.report.view)` |\n"
        }
        return text
    }

    /// docs/scenario-format.md: one row per kind with its strategies and each parameter
    /// with its default, meaning and valid values (what a scenario file may set).
    package static func kinds(_ scenarios: [any Scenario]) -> String {
        var text = "| kind | strategies | parameters: default, meaning, valid values |\n|---|---|---|\n"
        for scenario in scenarios {
            let parameters = scenario.parameters.map { spec in
                "`\(spec.name)` (\(spec.defaultValue)): \(cell(spec.summary)); \(spec.validValues)"
            }
            text += "| `\(scenario.name)` | \(scenario.strategies.joined(separator: ", ")) | \(parameters.joined(separator: "<br>")) |\n"
        }
        return text
    }

    /// Text that cannot end a Markdown table's cell early.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
