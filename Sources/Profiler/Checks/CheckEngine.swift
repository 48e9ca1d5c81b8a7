import ProfilerModel
import ProfilerSupport

/// How a check decides about latencies.
package struct StatisticsOptions: Sendable, Equatable {
    /// Significance level of the Mann-Whitney U test.
    package var alpha = 0.05
    /// The smallest relative change in the median worth calling a regression (0.05: 5 %).
    package var minimumEffect = 0.05
    /// The smallest absolute change in the median, in nanoseconds: below a microsecond,
    /// two runs of the same code on a shared machine differ by scheduling and caches alone.
    package var minimumEffectNanoseconds = 1000.0

    package init(alpha: Double = 0.05, minimumEffect: Double = 0.05, minimumEffectNanoseconds: Double = 1000) {
        self.alpha = alpha
        self.minimumEffect = minimumEffect
        self.minimumEffectNanoseconds = minimumEffectNanoseconds
    }
}

/// One metric's outcome.
package struct Verdict: Sendable, Equatable {
    package enum Status: String, Sendable, Codable {
        case pass, regression, improvement
        /// Only in the current run.
        case new
        /// In the baseline (or named by a budget) but not in this run: fails unless allowed.
        case missing
        /// A latency the repeats cannot decide about.
        case inconclusive
        /// Above a budget's `max`.
        case overBudget = "over-budget"
        /// Below a budget's `min` (a hit ratio too low, say).
        case underBudget = "under-budget"
        /// A derived figure (MetricRole.derived), shown next to the measurements it comes
        /// from but not gated against the baseline.
        case context
    }

    package let key: MetricKey
    package let polarity: Polarity
    package let baseline: Double?
    package let current: Double?
    package let status: Status
    /// Why: the tolerance or test that decided.
    package let note: String
    /// Whether this verdict fails the check: a regression, a broken budget, or a missing
    /// metric (unless the check allows missing ones).
    package let fails: Bool

    /// `fails` defaults to what the status means: regressions, broken budgets and
    /// missing metrics fail; the engine passes false for a missing metric that is allowed.
    package init(key: MetricKey, polarity: Polarity, baseline: Double?, current: Double?, status: Status, note: String,
                fails: Bool? = nil) {
        self.key = key
        self.polarity = polarity
        self.baseline = baseline
        self.current = current
        self.status = status
        self.note = note
        self.fails = fails ?? [.regression, .overBudget, .underBudget, .missing].contains(status)
    }

    package var change: Double? {
        guard let baseline, let current else { return nil }
        return current - baseline
    }

    package var relativeChange: Double? {
        guard let baseline, let change, baseline != 0 else { return nil }
        return change / abs(baseline)
    }
}

/// The verdicts of one check, and what they add up to.
package struct CheckResult: Sendable {
    package enum Outcome: String, Sendable {
        case pass, regression, improvement
        /// Nothing got worse, but metrics the baseline or a budget expects are not in the run.
        case missing
    }

    package let run: RunInfo
    package let baselines: [RunInfo]
    package let verdicts: [Verdict]
    /// What the reader should know that changes no verdict: parameters in which the
    /// baseline differs from the run (`--set items=60` against `items=5`, when allowed),
    /// a `median:N` over fewer than N runs.
    package var notes: [String]

    /// The verdicts of `run` against `baselines` (empty for a budgets-only check).
    package init(run: RunInfo, baselines: [RunInfo], verdicts: [Verdict], notes: [String] = []) {
        self.run = run
        self.baselines = baselines
        self.verdicts = verdicts
        self.notes = notes
    }

    /// Regression wins over missing, missing over improvement.
    package var outcome: Outcome {
        let failing = verdicts.filter(\.fails)
        if failing.contains(where: { $0.status != .missing }) { return .regression }
        if !failing.isEmpty { return .missing }
        if verdicts.contains(where: { $0.status == .improvement }) { return .improvement }
        return .pass
    }

    /// The verdicts a reader needs: everything but plain passes, undecidable latencies and
    /// unchanged derived figures (those are counted in the summary).
    package var notable: [Verdict] {
        verdicts.filter { v in
            switch v.status {
            case .pass, .inconclusive: false
            case .context: v.change.map { abs($0) > 1e-9 } ?? true
            default: true
            }
        }
    }
}

/// Compares a run's metrics with its baseline's, and with budgets.
package enum CheckEngine {
    /// - Parameter checkedScenario: the run's scenario, so its budgets apply even to a run without metrics.
    /// - Parameter allowMissing: a metric of the baseline (or a budget) that the run lacks
    ///   is reported as `missing` but does not fail.
    package static func compare(current: [Metric], baselines: [[Metric]], tolerances: Tolerances = Tolerances(),
                               statistics: StatisticsOptions = StatisticsOptions(), budgets: [Budget] = [],
                               allowMissing: Bool = false, checkedScenario: String? = nil) -> [Verdict] {
        let now = Dictionary(current.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var before: [MetricKey: [Metric]] = [:]
        for run in baselines { for metric in run { before[metric.key, default: []].append(metric) } }
        let keys = Set(now.keys).union(Set(before.keys)).sorted()
        var verdicts: [Verdict] = []
        for key in keys {
            let metric = now[key]
            if let metric, let violated = budgets.first(where: { $0.matches(key) && $0.violation(metric.value) != nil }) {
                let above = violated.max.map { metric.value > $0 } ?? false
                verdicts.append(Verdict(key: key, polarity: metric.polarity, baseline: before[key].map(aggregate),
                                        current: metric.value, status: above ? .overBudget : .underBudget,
                                        note: violated.violation(metric.value) ?? ""))
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
            } else if let metric, metric.role == .derived {
                verdicts.append(Verdict(key: key, polarity: metric.polarity, baseline: aggregate(old), current: metric.value,
                                        status: .context, note: "derived figure: shown, not gated"))
            } else if let metric {
                verdicts.append(metric.isLatency
                    ? judgeLatency(key, old, metric, statistics)
                    : judgeExact(key, aggregate(old), metric, tolerances.tolerance(for: key)))
            } else if let first = old.first {
                if first.role == .derived {
                    // Its primary figures are missing too, and those fail; this one is context.
                    verdicts.append(Verdict(key: key, polarity: first.polarity, baseline: aggregate(old), current: nil,
                                            status: .context, note: "derived figure, not in this run"))
                } else {
                    verdicts.append(missing(key, first.polarity, baseline: aggregate(old), note: "not in this run", allowMissing))
                }
            }
        }
        // A budget that no metric of its scenario matches checks nothing: fail closed.
        let scenarios = Set(current.map(\.key.scenario)).union(before.keys.map(\.scenario)).union(checkedScenario.map { [$0] } ?? [])
        for budget in budgets where scenarios.contains(budget.scenario) && !now.keys.contains(where: budget.matches) {
            let key = MetricKey(scenario: budget.scenario, component: budget.component ?? "", strategy: budget.strategy ?? "",
                                name: budget.type.map { TypeMetricName(type: $0).name } ?? budget.metric)
            let types = TypeMetricName.isTypeMetric(budget.metric)
                ? " (objects per type are measured only in runs recorded with type capture on)" : ""
            verdicts.append(missing(key, budget.min != nil ? .largerIsBetter : .smallerIsBetter, baseline: nil,
                                    note: "the budget at \(budget.origin) matches no metric of this run" + types, allowMissing))
        }
        return verdicts
    }

    static func missing(_ key: MetricKey, _ polarity: Polarity, baseline: Double?, note: String, _ allowed: Bool) -> Verdict {
        Verdict(key: key, polarity: polarity, baseline: baseline, current: nil, status: .missing,
                note: note + (allowed ? " (allowed)" : ""), fails: !allowed)
    }

    /// The baseline's value: the median over baseline runs.
    static func aggregate(_ metrics: [Metric]) -> Double { median(metrics.map(\.value)) }

    static func judgeExact(_ key: MetricKey, _ baseline: Double, _ metric: Metric, _ tolerance: Tolerance) -> Verdict {
        let worse = metric.polarity == .smallerIsBetter ? metric.value - baseline : baseline - metric.value
        let allowed = tolerance.allowance(for: baseline) + (metric.slack?.amount ?? 0)
        let epsilon = 1e-9
        let status: Verdict.Status = worse > allowed + epsilon ? .regression : (worse < -(allowed + epsilon) ? .improvement : .pass)
        let slack = metric.slack.map { "\($0.reason) (±\(SQLValue.numberText(($0.amount * 10_000).rounded() / 10_000)))" }
        let note = tolerance.allowance(for: baseline) > 0
            ? "tolerance \(tolerance)" + (slack.map { " + " + $0 } ?? "")
            : slack.map { "exact but " + $0 } ?? "exact"
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
            return verdict(.inconclusive, "too few repeats (\(before.count) vs \(after.count)) to test at alpha \(options.alpha); record 5 or more repeats")
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
