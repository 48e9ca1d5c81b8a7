import ProfilerModel
import ProfilerQueries
import ProfilerScenarios
import ProfilerStore

/// The names that exist for one scenario: what a budget, a tolerance or `trend` may name.
/// Built from the built-in declaration where there is one, and from the runs stored.
package struct ScenarioNames: Sendable, Equatable {
    package let scenario: String
    /// Whether any run of the scenario is stored (components and latencies are only
    /// known from runs).
    package let recorded: Bool
    package let strategies: Set<String>
    package let components: Set<String>
    /// Metrics `check` gates against a baseline.
    package let primaryMetrics: Set<String>
    /// Figures shown as context; budgets may still name them.
    package let derivedMetrics: Set<String>

    package var metrics: Set<String> { primaryMetrics.union(derivedMetrics) }

    /// Every scenario a name may refer to: the built-in ones and those with stored runs
    /// (scenario files, users' own executables), sorted.
    package static func knownScenarios(in db: any SQLRowSource) throws -> [String] {
        let stored = try db.rows("SELECT DISTINCT scenario FROM runs").compactMap { $0.first?.string }
        return Set(BuiltInScenarios.all.map(\.name)).union(stored).sorted()
    }

    /// Throws UnknownNameError unless `scenario` is built in or has stored runs.
    package static func requireScenario(_ scenario: String, origin: String, in db: any SQLRowSource) throws {
        let known = try knownScenarios(in: db)
        guard known.contains(scenario) else {
            throw UnknownNameError(kind: "scenario", name: scenario, origin: origin, known: known)
        }
    }

    /// The names of one scenario (which must be known).
    package static func load(_ scenario: String, in db: any SQLRowSource) throws -> ScenarioNames {
        let builtIn = BuiltInScenarios.all.first { $0.name == scenario }
        let runs = try db.rows("SELECT run_key, report, json_extract(parameters, '$.kind') FROM runs WHERE scenario = ?",
                               [.text(scenario)])
        var strategies = Set(builtIn?.strategies ?? [])
        let catalog = try BuiltInScenarios.reportCatalog(in: db)
        var reports: [ReportDeclaration] = builtIn.map { [$0.report] } ?? []
        for row in runs {
            if let name = row[1].string, let report = catalog.reports[name], !reports.contains(report) { reports.append(report) }
            // A scenario file's runs take the strategies of the built-in kind they run.
            if let kind = row[2].string, let declared = BuiltInScenarios.all.first(where: { $0.name == kind }) {
                strategies.formUnion(declared.strategies)
            }
        }
        let stored = try db.rows("""
            SELECT DISTINCT x.component, x.strategy FROM rollups x JOIN runs r ON r.run_key = x.run_key WHERE r.scenario = ?
            """, [.text(scenario)])
        strategies.formUnion(stored.compactMap { $0[1].string })
        let components = Set(stored.compactMap { $0[0].string }.filter { !$0.isEmpty })
        // Every type's objects per instance goes by its family's name (a budget's `type:` picks one).
        var primary = Set(RunMetric.allCases.map(\.name) + [TypeMetricName.family]), derived: Set<String> = []
        for report in reports {
            for column in try db.table("SELECT * FROM \(report.view) LIMIT 0", []).columns {
                guard case .metric(let role, _) = MetricCatalog.use(ofColumn: column, in: report), !RunReport.runColumns.contains(column),
                      !["component", "strategy", "baseline_strategy"].contains(column) else { continue }
                if role == .primary { primary.insert(column) } else { derived.insert(column) }
            }
        }
        let timed = LatencyName.kindFilter("x.kind")
        let latencies = try db.rows("""
            SELECT DISTINCT x.kind, st.name FROM step_rollups x JOIN runs r ON r.run_key = x.run_key
            JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
            WHERE r.scenario = ? AND \(timed.sql)
            """, [.text(scenario)] + timed.parameters)
        primary.formUnion(latencies.map { LatencyName(kind: $0[0].string ?? "", step: $0[1].string ?? "").name })
        return ScenarioNames(scenario: scenario, recorded: !runs.isEmpty, strategies: strategies, components: components,
                             primaryMetrics: primary, derivedMetrics: derived)
    }

    /// Checks a metric, component and strategy against these names; nil leaves one out.
    /// Components and latency metrics are only checked once the scenario has runs.
    package func check(metric: String?, component: String?, strategy: String?, origin: String) throws {
        let scope = "in \(scenario)"
        if let strategy, !strategies.contains(strategy) {
            throw UnknownNameError(kind: "strategy", name: strategy, origin: origin, scope: scope, known: strategies.sorted())
        }
        if let component, recorded, !components.contains(component) {
            throw UnknownNameError(kind: "component", name: component, origin: origin, scope: scope, known: components.sorted(),
                                   hint: components.isEmpty ? "\(scenario)'s report has no per-component rows; leave component out" : nil)
        }
        if let metric, !metrics.contains(metric), recorded || !LatencyName.isLatency(metric) {
            throw UnknownNameError(kind: "metric", name: metric, origin: origin, scope: scope, known: metrics.sorted())
        }
    }
}

/// Checks every name a `check` invocation typed, before anything is compared.
package enum CheckNames {
    /// Each budget's scenario, and its metric, component and strategy within that scenario.
    package static func validate(budgets: [Budget], in db: any SQLRowSource) throws {
        var cache: [String: ScenarioNames] = [:]
        for budget in budgets {
            try ScenarioNames.requireScenario(budget.scenario, origin: budget.origin, in: db)
            let names = try cache[budget.scenario] ?? ScenarioNames.load(budget.scenario, in: db)
            cache[budget.scenario] = names
            try names.check(metric: budget.metric, component: budget.component, strategy: budget.strategy, origin: budget.origin)
            if let type = budget.type { try TypeMetric.requireKnown(type, scenario: budget.scenario, origin: budget.origin, in: db) }
        }
    }

    /// A tolerance must name a gated metric of some known scenario.
    /// - Parameter origin: where the tolerance was given, as the caller's user knows it (the CLI says `--tolerance`).
    package static func validate(toleranceMetrics: [String], origin: String = "tolerance", in db: any SQLRowSource) throws {
        guard !toleranceMetrics.isEmpty else { return }
        let all = try ScenarioNames.knownScenarios(in: db).map { try ScenarioNames.load($0, in: db) }
        // Tolerances apply to exact metrics; latencies are decided by the statistical test.
        let exact = Set(all.flatMap(\.primaryMetrics).filter { !LatencyName.isLatency($0) })
        let derived = Set(all.flatMap(\.derivedMetrics))
        for metric in toleranceMetrics where !exact.contains(metric) {
            let hint = derived.contains(metric) ? "\(metric) is derived from other figures and not gated, so a tolerance for it would do nothing"
                : LatencyName.isLatency(metric) ? "latencies are judged by the statistical test (its alpha and minimum effects), not tolerances"
                : nil
            throw UnknownNameError(kind: "exact metric", name: metric, origin: "\(origin) \(metric)", known: exact.sorted(), hint: hint)
        }
    }
}
