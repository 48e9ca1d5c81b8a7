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
    /// realize events; the metric's value is the median of those medians.
    static func latencyMetrics(of run: RunInfo, in db: SQLiteConnection) throws -> [Metric] {
        let rows = try db.rows("""
            SELECT e.repeat, st.name, s.component, s.strategy, k.name, e.duration_ns
            FROM events e
            JOIN runs r ON r.run_key = e.run_key
            JOIN steps st ON st.run_key = e.run_key AND st.step = e.step
            JOIN subjects s ON s.subject_id = e.subject_id
            JOIN event_kinds k ON k.kind_id = e.kind_id
            WHERE r.run_id = ? AND e.kind_id IN (0, 1)
            """, [.text(run.runID)])
        var durations: [MetricKey: [Int: [Double]]] = [:]
        for row in rows {
            let key = MetricKey(scenario: run.scenario, component: row[2].string ?? "", strategy: row[3].string ?? "",
                                name: "\(row[4].string ?? "")_ns@\(row[1].string ?? "")")
            durations[key, default: [:]][Int(row[0].int64 ?? 0), default: []].append(row[5].double ?? 0)
        }
        return durations.map { key, byRepeat in
            let medians = byRepeat.keys.sorted().compactMap { byRepeat[$0] }.map(median)
            return Metric(key: key, value: median(medians), polarity: .smallerIsBetter, kind: .latency(samples: medians))
        }
    }
}
