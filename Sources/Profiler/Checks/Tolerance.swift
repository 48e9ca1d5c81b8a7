import ProfilerModel

/// How far an exact metric may move the wrong way before it is a regression: an
/// absolute amount (bytes, counts) or a percentage of the baseline. Zero by default:
/// a single byte more is a regression.
public struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    public var absolute: Double = 0
    public var percent: Double = 0

    public init(absolute: Double = 0, percent: Double = 0) {
        self.absolute = absolute
        self.percent = percent
    }

    public func allowance(for baseline: Double) -> Double { max(absolute, abs(baseline) * percent / 100) }

    public var description: String { percent > 0 ? "\(SQLValue.numberText(percent))%" : SQLValue.numberText(absolute) }

    /// Parses `64`, `2%`, `bytes_per_instance=2%`: a tolerance for every metric, or for
    /// the metrics of one name. Returns nil for text that is neither.
    public static func parse(_ text: String) -> (metric: String?, tolerance: Tolerance)? {
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
public struct Tolerances: Sendable, Equatable {
    public var byMetric: [String: Tolerance] = [:]
    public var fallback = Tolerance()

    public init() {}

    public func tolerance(for key: MetricKey) -> Tolerance { byMetric[key.name] ?? fallback }
}
