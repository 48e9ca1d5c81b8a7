/// How a check decides about latencies.
public struct StatisticsOptions: Sendable, Equatable {
    /// Significance level of the Mann-Whitney U test.
    public var alpha = 0.05
    /// The smallest relative change in the median worth calling a regression (0.05: 5 %).
    public var minimumEffect = 0.05
    /// The smallest absolute change in the median, in nanoseconds: below a microsecond,
    /// two runs of the same code on a shared machine differ by scheduling and caches alone.
    public var minimumEffectNanoseconds = 1000.0

    public init(alpha: Double = 0.05, minimumEffect: Double = 0.05, minimumEffectNanoseconds: Double = 1000) {
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.minimumEffectNanoseconds = minimumEffectNanoseconds
    }
}

/// One metric's outcome.
public struct Verdict: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        case pass, regression, improvement
        /// Only in the current run.
        case new
        /// Only in the baseline.
        case missing
        /// A latency the repeats cannot decide about.
        case inconclusive
        /// Outside an absolute budget.
        case overBudget = "over-budget"

        public var fails: Bool { self == .regression || self == .overBudget }
    }

    public let key: MetricKey
    public let polarity: Polarity
    public let baseline: Double?
    public let current: Double?
    public let status: Status
    /// Why: the tolerance or test that decided.
    public let note: String

    public var change: Double? {
        guard let baseline, let current else { return nil }
        return current - baseline
    }

    public var relativeChange: Double? {
        guard let baseline, let change, baseline != 0 else { return nil }
        return change / abs(baseline)
    }
}

/// The verdicts of one check, and what they add up to.
public struct CheckResult: Sendable {
    public enum Outcome: String, Sendable {
        case pass, regression, improvement
    }

    public let run: RunInfo
    public let baselines: [RunInfo]
    public let verdicts: [Verdict]

    public var outcome: Outcome {
        if verdicts.contains(where: { $0.status.fails }) { return .regression }
        if verdicts.contains(where: { $0.status == .improvement }) { return .improvement }
        return .pass
    }

    /// The verdicts a reader needs: everything but plain passes and undecidable latencies
    /// (those are counted in the summary).
    public var notable: [Verdict] { verdicts.filter { $0.status != .pass && $0.status != .inconclusive } }
}

/// Compares a run's metrics with its baseline's, and with budgets.
public enum CheckEngine {
    public static func compare(current: [Metric], baselines: [[Metric]], tolerances: Tolerances = Tolerances(),
                               statistics: StatisticsOptions = StatisticsOptions(), budgets: [Budget] = []) -> [Verdict] {
        let now = Dictionary(current.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var before: [MetricKey: [Metric]] = [:]
        for run in baselines { for metric in run { before[metric.key, default: []].append(metric) } }
        let keys = Set(now.keys).union(Set(before.keys)).sorted()
        var verdicts: [Verdict] = []
        for key in keys {
            let metric = now[key]
            if let metric, let violated = budgets.first(where: { $0.matches(key) && $0.violation(metric.value) != nil }) {
                verdicts.append(Verdict(key: key, polarity: metric.polarity, baseline: before[key].map(aggregate),
                                        current: metric.value, status: .overBudget, note: violated.violation(metric.value) ?? ""))
                continue
            }
            guard !baselines.isEmpty else {
                if let metric, budgets.contains(where: { $0.matches(key) }) {
                    verdicts.append(Verdict(key: key, polarity: metric.polarity, baseline: nil, current: metric.value,
                                            status: .pass, note: "within budget"))
                }
                continue
            }
            let old = before[key] ?? []
            if let metric, old.isEmpty {
                verdicts.append(Verdict(key: key, polarity: metric.polarity, baseline: nil, current: metric.value, status: .new, note: "not in the baseline"))
            } else if let metric {
                verdicts.append(metric.isLatency
                    ? judgeLatency(key, old, metric, statistics)
                    : judgeExact(key, aggregate(old), metric, tolerances.tolerance(for: key)))
            } else if let first = old.first {
                verdicts.append(Verdict(key: key, polarity: first.polarity, baseline: aggregate(old), current: nil, status: .missing, note: "not in this run"))
            }
        }
        return verdicts
    }

    /// The baseline's value: the median over baseline runs.
    static func aggregate(_ metrics: [Metric]) -> Double { median(metrics.map(\.value)) }

    static func judgeExact(_ key: MetricKey, _ baseline: Double, _ metric: Metric, _ tolerance: Tolerance) -> Verdict {
        let worse = metric.polarity == .smallerIsBetter ? metric.value - baseline : baseline - metric.value
        let allowed = tolerance.allowance(for: baseline)
        let epsilon = 1e-9
        let status: Verdict.Status = worse > allowed + epsilon ? .regression : (worse < -(allowed + epsilon) ? .improvement : .pass)
        let note = allowed > 0 ? "tolerance \(tolerance)" : "exact"
        return Verdict(key: key, polarity: metric.polarity, baseline: baseline, current: metric.value, status: status, note: note)
    }

    static func judgeLatency(_ key: MetricKey, _ old: [Metric], _ metric: Metric, _ options: StatisticsOptions) -> Verdict {
        let before = old.flatMap(\.samples), after = metric.samples
        let baseline = median(before)
        func verdict(_ status: Verdict.Status, _ note: String) -> Verdict {
            Verdict(key: key, polarity: metric.polarity, baseline: baseline, current: median(after), status: status, note: note)
        }
        let reachable = MannWhitney.smallestPValue(n1: before.count, n2: after.count)
        guard reachable < options.alpha, let test = MannWhitney.test(before, after) else {
            return verdict(.inconclusive, "too few repeats (\(before.count) vs \(after.count)) to test at alpha \(options.alpha); record with --repeat 5 or more")
        }
        let effect = baseline == 0 ? 0 : (median(after) - baseline) / baseline
        let worse = metric.polarity == .smallerIsBetter ? effect : -effect
        let large = abs(median(after) - baseline) >= options.minimumEffectNanoseconds
        let note = "Mann-Whitney p=\(SQLValue.numberText((test.pValue * 10_000).rounded() / 10_000)), median \(worse >= 0 ? "+" : "")\(SQLValue.numberText((effect * 10_000).rounded() / 100))%"
        if test.pValue < options.alpha && large && worse > options.minimumEffect { return verdict(.regression, note) }
        if test.pValue < options.alpha && large && worse < -options.minimumEffect { return verdict(.improvement, note) }
        return verdict(.pass, note)
    }
}
