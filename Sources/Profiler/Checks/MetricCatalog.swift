/// Turns a recorded run into the metrics `check`, `compare` and `trend` work on:
/// the numeric columns of its report view (bytes and counts, compared exactly), and
/// the per-repeat median latency of each (step, component, strategy, kind) of creating
/// and realizing (compared statistically).
public enum MetricCatalog {
    /// Report columns that are larger-is-better; every other gated column is smaller-is-better.
    static let largerIsBetter: Set<String> = ["hits", "hit_ratio", "saved_bytes", "savings_pct", "break_even_pct"]

    /// Report columns that are not gated: identifiers, inputs, and figures that vary from
    /// run to run by nature (timings, and how a background sweep happened to interleave).
    static let ungated: Set<String> = [
        "instances", "panels", "opened", "realized_pct", "sweeps", "sweeps_skipped", "sweep_ms",
        "first_ns", "later_median_ns", "later_p90_ns", "reuse_median_ns", "reuse_p90_ns",
    ]

    public static func metrics(of run: RunInfo, in db: SQLiteConnection) throws -> [Metric] {
        try reportMetrics(of: run, in: db) + allocationMetrics(of: run, in: db) + latencyMetrics(of: run, in: db)
    }

    static func reportMetrics(of run: RunInfo, in db: SQLiteConnection) throws -> [Metric] {
        let report = try RunReport.load(run, measure: .requested, from: db)
        let columns = report.table.columns
        var metrics: [Metric] = []
        for row in report.table.rows {
            let fields = Dictionary(zip(columns, row), uniquingKeysWith: { a, _ in a })
            let component = fields["component"]?.string ?? ""
            let strategy = fields["strategy"]?.string ?? ""
            for (column, value) in zip(columns, row) where !ungated.contains(column) {
                guard let number = value.double else { continue }
                metrics.append(Metric(key: MetricKey(scenario: run.scenario, component: component, strategy: strategy, name: column),
                                      value: number, polarity: largerIsBetter.contains(column) ? .largerIsBetter : .smallerIsBetter))
            }
        }
        return metrics
    }

    /// Allocations per instance, from the rollups: a count, exact.
    static func allocationMetrics(of run: RunInfo, in db: SQLiteConnection) throws -> [Metric] {
        try db.rows("""
            SELECT x.component, x.strategy, CAST(x.allocations AS REAL) / (x.instances * x.repeats)
            FROM rollups x JOIN runs r ON r.run_key = x.run_key WHERE r.run_id = ?
            """, [.text(run.runID)]).map { row in
            Metric(key: MetricKey(scenario: run.scenario, component: row[0].string ?? "", strategy: row[1].string ?? "",
                                  name: "allocations_per_instance"),
                   value: ((row[2].double ?? 0) * 100).rounded() / 100, polarity: .smallerIsBetter)
        }
    }

    /// Median duration per repeat of each (step, component, strategy) for create and
    /// realize events; the metric's value is the median of those medians. Read from the
    /// rollups (latency_rollups per repeat, or step_rollups for a single repeat), never
    /// from the events.
    static func latencyMetrics(of run: RunInfo, in db: SQLiteConnection) throws -> [Metric] {
        var rows = try db.rows("""
            SELECT x.repeat, st.name, x.component, x.strategy, x.kind, x.duration_ns_median
            FROM latency_rollups x JOIN runs r ON r.run_key = x.run_key
            JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
            WHERE r.run_id = ?
            """, [.text(run.runID)])
        if rows.isEmpty {
            rows = try db.rows("""
                SELECT 0, step, component, strategy, kind, duration_ns_median FROM step_summary
                WHERE run_id = ? AND kind IN ('create', 'realize')
                """, [.text(run.runID)])
        }
        var medians: [MetricKey: [Double]] = [:]
        for row in rows {
            let key = MetricKey(scenario: run.scenario, component: row[2].string ?? "", strategy: row[3].string ?? "",
                                name: "\(row[4].string ?? "")_ns@\(row[1].string ?? "")")
            medians[key, default: []].append(row[5].double ?? 0)
        }
        return medians.map { key, samples in
            Metric(key: key, value: median(samples), polarity: .smallerIsBetter, kind: .latency(samples: samples))
        }
    }
}
