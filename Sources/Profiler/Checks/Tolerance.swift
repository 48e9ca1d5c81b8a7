import ProfilerModel

/// How far an exact metric may move the wrong way before it is a regression: an
/// absolute amount (bytes, counts) or a percentage of the baseline. Zero by default:
/// a single byte more is a regression.
package struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    package var absolute: Double = 0
    package var percent: Double = 0

    package init(absolute: Double = 0, percent: Double = 0) {
        self.absolute = absolute
        self.percent = percent
    }

    package func allowance(for baseline: Double) -> Double { max(absolute, abs(baseline) * percent / 100) }

    package var description: String { percent > 0 ? "\(SQLValue.numberText(percent))%" : SQLValue.numberText(absolute) }

    /// Parses `64`, `2%`, `bytes_per_instance=2%`: a tolerance for every metric, or for
    /// the metrics of one name. Returns nil for text that is neither.
    package static func parse(_ text: String) -> (metric: String?, tolerance: Tolerance)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let metric = parts.count == 2 ? parts[0] : nil
        guard var amount = parts.last, !amount.isEmpty else { return nil }
        let isPercent = amount.hasSuffix("%")
        if isPercent { amount.removeLast() }
        guard let value = Double(amount), value >= 0, value.isFinite else { return nil }
        return (metric, isPercent ? Tolerance(percent: value) : Tolerance(absolute: value))
    }
}

/// Tolerances by metric name, with a default for the rest.
package struct Tolerances: Sendable, Equatable {
    package var byMetric: [String: Tolerance] = [:]
    package var fallback = Tolerance()

    package init() {}

    /// The metric's own, its family's (`objects_per_instance` for every type's), or the fallback.
    package func tolerance(for key: MetricKey) -> Tolerance {
        byMetric[key.name] ?? (TypeMetricName(key.name).flatMap { _ in byMetric[TypeMetricName.family] }) ?? fallback
    }
}
