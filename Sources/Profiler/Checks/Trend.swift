import ProfilerModel
import ProfilerStore

/// One metric of one scenario over its recent runs.
package struct TrendPoint: Sendable, Equatable {
    package let run: RunInfo
    package let value: Double?
    /// How far the value may move between identical runs (0 for bytes and latencies).
    package let slack: Double
}

/// One (component, strategy) series of a metric over runs.
package struct TrendSeries: Sendable, Equatable {
    package let metric: String
    /// Empty for a strategy-level metric.
    package let component: String
    package let strategy: String
    /// One point per run, oldest first; nil where a run lacks this series.
    package let points: [TrendPoint]

    /// "Label / eager", or "eager" for a strategy-level metric.
    package var label: String { [component, strategy].filter { !$0.isEmpty }.joined(separator: " / ") }

    /// Latencies vary from run to run and need statistics to find a change; bytes and
    /// counts repeat exactly.
    package var isLatency: Bool { LatencyName.isLatency(metric) }
}

package enum Trend {
    /// The last `limit` complete runs of `scenario`, oldest first, and the metric's value
    /// in each, one series per (component, strategy) that `component` and `strategy`
    /// leave open: every series is returned, none is picked silently. A nil `metric`
    /// means every metric of the scenario, series by series.
    package static func series(scenario: String, metric: String?, component: String?, strategy: String?,
                              limit: Int, in db: any SQLRowSource) throws -> (runs: [RunInfo], series: [TrendSeries]) {
        let runs = Array(try db.rows("""
            SELECT \(RunInfo.columns) FROM runs WHERE status = 'complete' AND scenario = ?
            ORDER BY started_at DESC LIMIT ?
            """, [.text(scenario), .init(limit)]).map(RunInfo.init(row:)).reversed())
        var values: [[MetricKey: (value: Double, slack: Double)]] = []
        var keys: [MetricKey] = []
        var known: Set<MetricKey> = []
        // Each report view read once for all the runs: read run by run, the view is
        // computed over the whole history every time.
        for metrics in try MetricCatalog.metrics(of: runs, family: metric, in: db) {
            var byKey: [MetricKey: (value: Double, slack: Double)] = [:]
            for m in metrics where (metric.map { m.key.name == $0 } ?? true) && (component.map { m.key.component == $0 } ?? true)
                && (strategy.map { m.key.strategy == $0 } ?? true) {
                // Keys without the scenario: a series spans runs.
                let key = MetricKey(scenario: "", component: m.key.component, strategy: m.key.strategy, name: m.key.name)
                if byKey[key] == nil { byKey[key] = (m.value, m.slack?.amount ?? 0) }
                if known.insert(key).inserted { keys.append(key) }
            }
            values.append(byKey)
        }
        if metric == nil {
            // Every metric: one metric's series together, in the order they first came.
            let names = keys.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            keys = names.flatMap { name in keys.filter { $0.name == name } }
        }
        let series = keys.map { key in
            TrendSeries(metric: key.name, component: key.component, strategy: key.strategy,
                        points: zip(runs, values).map { TrendPoint(run: $0, value: $1[key]?.value, slack: $1[key]?.slack ?? 0) })
        }
        return (runs, series)
    }

    /// A one-line chart of the values: ▁ for the smallest, █ for the largest.
    package static func sparkline(_ values: [Double?]) -> String {
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
