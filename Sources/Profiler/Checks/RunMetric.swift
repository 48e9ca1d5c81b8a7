import ProfilerModel
import ProfilerStore
import ProfilerSupport

/// A gated figure every run has besides its report columns: a count from the rollups of
/// each (component, strategy), per measured instance (instances × repeats).
///
/// Adding one is a case here: the switches below make the compiler ask for its rollups
/// column, polarity and slack, and `check`, `trend`, the names a budget or a tolerance may
/// use and `trend`'s help all take `allCases`. Document it in docs/ci.md.
package enum RunMetric: String, CaseIterable, Sendable {
    case allocationsPerInstance = "allocations_per_instance"
    /// The peaks of an instance's create and realize events (each its region's highest live
    /// requested bytes), summed: what building it held at most, beside what it keeps.
    case peakBytesPerInstance = "peak_bytes_per_instance"

    /// The metric's name, as budgets, tolerances and `trend --metric` spell it.
    package var name: String { rawValue }

    /// The column of `rollups` summed over a (component, strategy). A run whose rollups
    /// hold NULL there (recorded before the column was counted) has no value: the metric
    /// is absent, never 0.
    var rollupsColumn: String {
        switch self {
        case .allocationsPerInstance: "allocations"
        case .peakBytesPerInstance: "peak_requested_bytes"
        }
    }

    /// What one unit of the count is, as a note names it ("2 allocations per run").
    package var unit: String {
        switch self {
        case .allocationsPerInstance: "allocations"
        case .peakBytesPerInstance: "bytes"
        }
    }

    package var polarity: Polarity {
        switch self {
        case .allocationsPerInstance, .peakBytesPerInstance: .smallerIsBetter
        }
    }

    /// How many units a whole run may gain or lose between identical recordings (0:
    /// exact). Allocations count temporary blocks (allocated and freed inside one measured
    /// step), and which of those happen can change between identical runs while the bytes
    /// kept do not: live-room's comment-row realize made 33 allocations with 3 freed at
    /// once, or 32 with 2, keeping the same 5,570 bytes; composite-cell's first template
    /// cell made 133 or 135 (docs/ci.md). Peaks are bytes, exact as the bytes kept: three
    /// recordings of every built-in scenario gave the same peak per instance to the byte.
    package var slackPerRun: Double {
        switch self {
        case .allocationsPerInstance: 2
        case .peakBytesPerInstance: 0
        }
    }

    /// The slack of one per-instance value measured over `measured` instances (all
    /// repeats), plus the 0.01 the value is rounded to; nil for an exact metric.
    package func slack(measured: Double) -> Slack? {
        guard slackPerRun > 0 else { return nil }
        return Slack(amount: slackPerRun / max(1, measured) + 0.01,
                     reason: "\(SQLValue.numberText(slackPerRun)) \(unit) per run")
    }

    /// The metric per (component, strategy) of one run, from its rollups (never from the
    /// events), rounded to 0.01.
    func metrics(of run: RunInfo, in db: any SQLRowSource) throws -> [Metric] {
        // The column comes from the switch above, never from input.
        try db.rows("""
            SELECT x.component, x.strategy, x.\(rollupsColumn), x.instances * x.repeats
            FROM rollups x JOIN runs r ON r.run_key = x.run_key WHERE r.run_id = ?
            """, [.text(run.runID)]).compactMap { row in
            guard let count = row[2].double else { return nil }
            let measured = row[3].double ?? 0
            let value = measured > 0 ? count / measured : 0
            return Metric(key: MetricKey(scenario: run.scenario, component: row[0].string ?? "", strategy: row[1].string ?? "",
                                         name: name),
                          value: (value * 100).rounded() / 100, polarity: polarity, slack: slack(measured: measured))
        }
    }
}

/// How far an exact figure may move between identical runs without being a change, and why.
package struct Slack: Sendable, Equatable {
    /// In the metric's own unit (allocations per instance, say).
    package let amount: Double
    /// What a reader is told: "2 allocations per run".
    package let reason: String

    package init(amount: Double, reason: String) {
        self.amount = amount
        self.reason = reason
    }
}
