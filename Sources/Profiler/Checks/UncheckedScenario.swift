/// A scenario `check` was asked about but could not check: a budget names it and it has
/// no complete run, or its baseline does not exist. Every output format lists these next
/// to the checked runs, so no format says "pass" while the exit code says otherwise.
package struct UncheckedScenario: Sendable, Equatable {
    package enum Reason: String, Sendable {
        /// A budget names the scenario, and the database holds no complete run of it.
        case noRun = "no-run"
        /// The baseline asked for has no run of this scenario (exit 5 when nothing else failed).
        case noBaseline = "no-baseline"
        /// A budgets-only check (no baseline) whose budgets name nothing of the scenario: its
        /// run was read and gated by nothing, which is no pass.
        case noBudget = "no-budget"
    }

    package let scenario: String
    package let reason: Reason
    /// What happened and how to fix it.
    package let note: String
    /// Whether it fails the check (a budget with nothing to check, unless --allow-missing).
    package let fails: Bool

    package init(scenario: String, reason: Reason, note: String, fails: Bool) {
        self.scenario = scenario
        self.reason = reason
        self.note = note
        self.fails = fails
    }

    /// What the verdict is called in every format: `missing` when it fails (a budget's
    /// metrics are missing), else its reason.
    package var status: String { fails ? CheckResult.Outcome.missing.rawValue : reason.rawValue }
}

/// The outcome of a whole check: the checked runs' outcomes and the scenarios not checked,
/// most serious first (regression, missing, not checked, improvement, pass). The exit
/// code of `profctl check` is chosen from it, and every format prints it.
package enum CheckOverall: String, Sendable {
    case pass, regression, improvement, missing
    /// Nothing failed, but a scenario's baseline does not exist.
    case notChecked = "not-checked"

    package init(_ results: [CheckResult], unchecked: [UncheckedScenario]) {
        let outcomes = Set(results.map(\.outcome))
        if outcomes.contains(.regression) {
            self = .regression
        } else if outcomes.contains(.missing) || unchecked.contains(where: \.fails) {
            self = .missing
        } else if unchecked.contains(where: { $0.reason == .noBaseline }) {
            self = .notChecked
        } else if outcomes.contains(.improvement) {
            self = .improvement
        } else {
            self = .pass
        }
    }
}
