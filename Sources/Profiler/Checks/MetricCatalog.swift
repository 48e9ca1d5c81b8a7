import ProfilerModel
import ProfilerScenarios
import ProfilerStore
import ProfilerSupport

/// Turns a recorded run into the metrics `check`, `compare` and `trend` work on:
/// the numeric columns of its report view (bytes and counts, compared exactly), and
/// the per-repeat median latency of each (step, component, strategy, kind) of creating
/// and realizing (compared statistically).
package enum MetricCatalog {
    /// How `check` treats one report column.
    package enum ColumnUse: Sendable, Equatable {
        /// A metric with this role and polarity.
        case metric(MetricRole, Polarity)
        /// Not a metric: a label, an input (instances, panels), or a figure that varies
        /// from run to run by nature (timings, how a background sweep interleaved).
        case notGated
    }

    /// How a report column is used, as its report declares it. A numeric column the
    /// declaration does not name is gated as primary and smaller-is-better: a new column
    /// fails closed until it is declared.
    package static func use(ofColumn column: String, in report: ReportDeclaration) -> ColumnUse {
        guard let declared = report.column(column) else { return .metric(.primary, .smallerIsBetter) }
        guard declared.gated, let polarity = declared.polarity else { return .notGated }
        return .metric(declared.role, polarity)
    }

    /// Every metric of one run: its report columns, the RunMetrics, its types' objects per
    /// instance (recorded with --types), its latencies.
    package static func metrics(of run: RunInfo, in db: any SQLRowSource) throws -> [Metric] {
        try metrics(of: [run], in: db).first ?? []
    }

    /// The metrics of many runs, in their order (the one place the list is put together).
    /// With a `name`, only its family is read: a latency's name reads latencies, any other
    /// name the exact figures (report columns and RunMetrics); the caller picks the name out.
    package static func metrics(of runs: [RunInfo], family name: String? = nil, in db: any SQLRowSource) throws -> [[Metric]] {
        let exact = name.map { !LatencyName.isLatency($0) } ?? true
        let latencies = name.map(LatencyName.isLatency) ?? true
        let reports = exact ? try reportMetrics(of: runs, in: db) : runs.map { _ in [] }
        return try zip(runs, reports).map { run, report in
            (exact ? report + (try runMetrics(of: run, in: db)) + (try TypeMetric.metrics(of: run, in: db)) : [])
                + (latencies ? try latencyMetrics(of: run, in: db) : [])
        }
    }

    /// The report metrics of many runs, in their order, each report's view read once for
    /// all of them (`trend` over a long history).
    static func reportMetrics(of runs: [RunInfo], in db: any SQLRowSource) throws -> [[Metric]] {
        try RunReport.load(runs, measure: .requested, catalog: try BuiltInScenarios.reportCatalog(in: db), from: db).map(reportMetrics(in:))
    }

    /// The gated numeric columns of one run's report.
    static func reportMetrics(in report: RunReport) -> [Metric] {
        let run = report.run
        let columns = report.table.columns
        var metrics: [Metric] = []
        for row in report.table.rows {
            let fields = Dictionary(zip(columns, row), uniquingKeysWith: { a, _ in a })
            let component = fields["component"]?.string ?? ""
            let strategy = fields["strategy"]?.string ?? ""
            for (column, value) in zip(columns, row) {
                guard case .metric(let role, let polarity) = use(ofColumn: column, in: report.declaration), let number = value.double else { continue }
                metrics.append(Metric(key: MetricKey(scenario: run.scenario, component: component, strategy: strategy, name: column),
                                      value: number, polarity: polarity, role: role))
            }
        }
        return metrics
    }

    /// Every RunMetric of one run, from its rollups.
    static func runMetrics(of run: RunInfo, in db: any SQLRowSource) throws -> [Metric] {
        try RunMetric.allCases.flatMap { try $0.metrics(of: run, in: db) }
    }

    /// Median duration per repeat of each (step, component, strategy) for create and
    /// realize events; the metric's value is the median of those medians. Read from the
    /// rollups (latency_rollups per repeat, or step_rollups for a single repeat), never
    /// from the events.
    static func latencyMetrics(of run: RunInfo, in db: any SQLRowSource) throws -> [Metric] {
        var rows = try db.rows("""
            SELECT x.repeat, st.name, x.component, x.strategy, x.kind, x.duration_ns_median
            FROM latency_rollups x JOIN runs r ON r.run_key = x.run_key
            JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
            WHERE r.run_id = ?
            """, [.text(run.runID)])
        if rows.isEmpty {
            let timed = LatencyName.kindFilter("kind")
            rows = try db.rows("""
                SELECT 0, step, component, strategy, kind, duration_ns_median FROM step_summary
                WHERE run_id = ? AND \(timed.sql)
                """, [.text(run.runID)] + timed.parameters)
        }
        var medians: [MetricKey: [Double]] = [:]
        for row in rows {
            let key = MetricKey(scenario: run.scenario, component: row[2].string ?? "", strategy: row[3].string ?? "",
                                name: LatencyName(kind: row[4].string ?? "", step: row[1].string ?? "").name)
            medians[key, default: []].append(row[5].double ?? 0)
        }
        // In key order: a dictionary's order changes from one process to the next, and a
        // trend or a check must print the same rows from the same runs on either store.
        return medians.sorted { $0.key < $1.key }.map { key, samples in
            Metric(key: key, value: median(samples), polarity: .smallerIsBetter, kind: .latency(samples: samples))
        }
    }
}
