/// One metric of one scenario over its recent runs.
public struct TrendPoint: Sendable, Equatable {
    public let run: RunInfo
    public let value: Double?
}

public enum Trend {
    /// The last `limit` complete runs of `scenario`, oldest first, with the metric's value
    /// in each (nil where a run lacks it).
    public static func points(scenario: String, metric: String, component: String?, strategy: String?,
                              limit: Int, in db: SQLiteConnection) throws -> [TrendPoint] {
        let runs = try db.rows("""
            SELECT \(RunInfo.columns) FROM runs WHERE status = 'complete' AND scenario = ?
            ORDER BY started_at DESC LIMIT ?
            """, [.text(scenario), .init(limit)]).map(RunInfo.init(row:)).reversed()
        return try runs.map { run in
            let metrics = metric.contains("_ns@") ? try MetricCatalog.latencyMetrics(of: run, in: db)
                : try MetricCatalog.reportMetrics(of: run, in: db) + MetricCatalog.allocationMetrics(of: run, in: db)
            let match = metrics.first { m in
                m.key.name == metric && (component.map { m.key.component == $0 } ?? true)
                    && (strategy.map { m.key.strategy == $0 } ?? true)
            }
            return TrendPoint(run: run, value: match?.value)
        }
    }

    /// A one-line chart of the values: ▁ for the smallest, █ for the largest.
    public static func sparkline(_ values: [Double?]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let known = values.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return "" }
        return String(values.map { value -> Character in
            guard let value else { return " " }
            guard high > low else { return bars[3] }
            return bars[Int(((value - low) / (high - low) * Double(bars.count - 1)).rounded())]
        })
    }
}
