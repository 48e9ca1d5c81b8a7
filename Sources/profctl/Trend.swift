import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct TrendCommand: ParsableCommand, Exemplified {
    static let examples = [
        "profctl trend --scenario lazy-container --component Label --strategy eager --metric bytes_per_instance",
        "profctl trend --scenario image-cache --strategy strong-cache --metric live_bytes_while_shown --format csv",
        "profctl trend --scenario lazy-container --component Label --strategy lazy --metric bytes_per_instance --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "One metric of one scenario over its last runs: date, commit, value (and a sparkline on a terminal).",
        discussion: """
            Metric names are report columns (docs/schema.md), allocations_per_instance, or \
            latencies like create_ns@build. Each (component, strategy) the options leave open \
            is a series of its own, with its component and strategy on every row; with \
            several, stderr names them all. A name that does not exist exits 64 with the \
            valid ones.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions
    @Option(help: "The scenario.") var scenario: String
    @Option(help: "The metric.") var metric: String
    @Option(help: "The component (for per-component reports).") var component: String?
    @Option(help: "The strategy.") var strategy: String?
    @Option(help: "How many runs, newest last.") var limit = 20
    @Option(help: "table, markdown, csv or json.") var format = OutputFormat.table

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
    }

    func run() throws {
        try reportingStoreErrors {
            let db = try store.open(database)
            try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db)
            let names = try ScenarioNames.load(scenario, in: db)
            try names.check(metric: nil, component: nil, strategy: strategy, origin: "--strategy")
            try names.check(metric: nil, component: component, strategy: nil, origin: "--component")
            try names.check(metric: metric, component: nil, strategy: nil, origin: "--metric")
            let (runs, series) = try Trend.series(scenario: scenario, metric: metric, component: component, strategy: strategy,
                                                  limit: limit, in: db)
            guard !runs.isEmpty else { throw NoCompleteRun(scenario: scenario, path: db.storeName) }
            guard !series.isEmpty else {
                throw ScenarioError.invalidOption("no metric '\(metric)'\(component.map { " of \($0)" } ?? "")\(strategy.map { " for \($0)" } ?? "") in \(scenario) runs")
            }
            var rows: [[SQLValue]] = []
            for line in series {
                for p in line.points {
                    rows.append([.text(p.run.startedAt), .text(p.run.runID), SQLValue(p.run.gitCommit.map { String($0.prefix(12)) }),
                                 SQLValue(p.run.branch), .text(line.component), .text(line.strategy), p.value.map(SQLValue.real) ?? .null])
                }
            }
            let table = ResultTable(columns: ["started_at", "run_id", "git_commit", "branch", "component", "strategy", "value"], rows: rows)
            Console.output(format.renderer.render(table))
            if series.count > 1 {
                Console.message("\(series.count) series of \(metric): " + series.map(\.label).joined(separator: ", ")
                                + " (--component and --strategy pick one)")
            }
            if format == .table && isatty(STDOUT_FILENO) != 0 {
                let width = series.map(\.label.count).max() ?? 0
                Console.output("\n" + series.map { line in
                    "\(metric) \(line.label.padding(toLength: width, withPad: " ", startingAt: 0)): " + Trend.sparkline(line.points.map(\.value))
                }.joined(separator: "\n") + "\n")
            }
        }
    }
}
