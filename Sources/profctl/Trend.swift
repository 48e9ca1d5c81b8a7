import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct TrendCommand: ParsableCommand, Exemplified {
    static let examples = [
        "profctl trend --scenario lazy-container --component Label --strategy eager --metric bytes_per_instance",
        "profctl trend --scenario image-cache --strategy strong-cache --metric live_bytes_while_shown --format csv",
    ]

    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "One metric of one scenario over its last runs: date, commit, value (and a sparkline on a terminal).",
        discussion: "Metric names are report columns (docs/schema.md), allocations_per_instance, or latencies like create_ns@build."
    )

    @OptionGroup var database: DatabaseOptions
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
        try reportingErrors {
            let db = try ProfileStore.openForReading(path: database.path)
            let points = try Trend.points(scenario: scenario, metric: metric, component: component, strategy: strategy,
                                          limit: limit, in: db)
            guard !points.isEmpty else { throw StoreError.noRuns(path: database.path) }
            guard points.contains(where: { $0.value != nil }) else {
                throw ScenarioError.invalidOption("no metric '\(metric)'\(component.map { " of \($0)" } ?? "")\(strategy.map { " for \($0)" } ?? "") in \(scenario) runs")
            }
            let table = ResultTable(columns: ["started_at", "run_id", "git_commit", "branch", "value"], rows: points.map { p in
                [.text(p.run.startedAt), .text(p.run.runID), SQLValue(p.run.gitCommit.map { String($0.prefix(12)) }),
                 SQLValue(p.run.branch), p.value.map(SQLValue.real) ?? .null]
            })
            Console.output(format.renderer.render(table))
            if format == .table && isatty(STDOUT_FILENO) != 0 {
                Console.output("\n\(metric): " + Trend.sparkline(points.map(\.value)) + "\n")
            }
        }
    }
}
