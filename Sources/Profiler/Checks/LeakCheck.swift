import Foundation
import ProfilerModel
import ProfilerScenarios
import ProfilerStore

/// The leak verdicts of one run.
package struct LeakCheckResult: Sendable {
    package let run: RunInfo
    package let verdicts: [LeakVerdict]
    /// Things a reader must know to trust the verdicts (no declarations found, no events).
    package let notes: [String]
    /// Why growth was not judged (too few repeats), or nil when it was.
    package let growthNotJudged: String?

    package var fails: Bool { verdicts.contains(where: \.fails) }
    /// The run has no round trips (no events): nothing was judged, which is no pass.
    package var nothingJudged: Bool { verdicts.isEmpty }
    /// `leaks`, `missing` (nothing judged) or `pass`: what every format calls the run's outcome.
    package var outcome: LeakOutput.Outcome { fails ? .leaks : nothingJudged ? .missing : .pass }
}

/// What `profctl check --leaks` does for one run: reads its round trips, applies its
/// scenario's declarations of intended retention and the budgets, judges both rules.
package enum LeakCheck {
    /// Budgets whose metric is a leak key; the others are `check`'s without `--leaks`.
    package static func leakBudgets(_ budgets: [Budget]) -> [Budget] {
        budgets.filter { LeakRules.budgetKeys.contains($0.metric) }
    }

    /// A leak budget is a maximum, for a scenario, strategy and component that exist.
    package static func validate(budgets: [Budget], in db: any SQLRowSource) throws {
        var cache: [String: ScenarioNames] = [:]
        for budget in leakBudgets(budgets) {
            try ScenarioNames.requireScenario(budget.scenario, origin: budget.origin, in: db)
            let names = try cache[budget.scenario] ?? ScenarioNames.load(budget.scenario, in: db)
            cache[budget.scenario] = names
            try names.check(metric: nil, component: budget.component, strategy: budget.strategy, origin: budget.origin)
            if budget.min != nil || budget.max == nil {
                throw LeakBudgetError(origin: budget.origin, metric: budget.metric)
            }
        }
    }

    /// The built-in scenario a run ran: its own name, or a scenario file's `kind`.
    static func builtIn(for run: RunInfo) -> (any Scenario)? {
        let kind = parameter("kind", of: run) as? String ?? run.scenario
        return BuiltInScenarios.all.first { $0.name == kind }
    }

    static func parameter(_ name: String, of run: RunInfo) -> Any? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(run.parameters.utf8)) as? [String: Any] else { return nil }
        return object[name]
    }

    package static func check(_ run: RunInfo, budgets: [Budget] = [], in db: any SQLRowSource) throws -> LeakCheckResult {
        try Checker.requireComplete(run, as: "the run to check")
        let trips = try RoundTrip.load(run: run.runID, in: db)
        let repeats = (parameter("repeats", of: run) as? Int) ?? (trips.map(\.repeatIndex).max().map { $0 + 1 } ?? 1)
        var notes: [String] = []
        // What the run's scenario declared when it was recorded; a run recorded before
        // the declarations were stored (schema version 9) falls back to the built-in one.
        let declared = try ScenarioDeclaration.stored(runID: run.runID, in: db)?.keptOnPurpose ?? builtIn(for: run)?.keptOnPurpose
        if declared == nil {
            notes.append("\(run.scenario) stores no declaration (recorded before profctl stored them) and is not a built-in scenario: "
                         + "no retention is declared intended, so everything left behind counts")
        }
        var growthNotJudged: String?
        if repeats < LeakRules.minimumRepeats {
            growthNotJudged = ("growth not judged: recorded with \(repeats) repeat\(repeats == 1 ? "" : "s"); record \(LeakRules.minimumRepeats) or more repeats")
        }
        if trips.isEmpty { notes.append("the run has no events: nothing was judged, so it fails as missing (were its events deleted, or did its steps run no component?)") }
        let mine = leakBudgets(budgets).filter { $0.scenario == run.scenario }
        var verdicts = LeakRules.verdicts(trips, repeats: repeats, declared: declared ?? []) { metric, component, strategy in
            // The strictest budget that applies.
            mine.filter { $0.metric == metric && ($0.component ?? component) == component && ($0.strategy ?? strategy) == strategy }
                .compactMap(\.max).min()
        }
        // With --sites, what was left behind is named by the functions that allocated it.
        if let sites = try LeakSites.load(runID: run.runID, in: db) {
            for index in verdicts.indices {
                let v = verdicts[index]
                verdicts[index].sites = v.retainedBytes > 0 ? sites[LeakSites.Subject(component: v.component, strategy: v.strategy)] ?? [] : []
            }
        }
        // With --types, what was left behind is named by type where the types tell it exactly.
        try LeakTypes.name(&verdicts, run: run, in: db)
        return LeakCheckResult(run: run, verdicts: verdicts, notes: notes, growthNotJudged: growthNotJudged)
    }
}

/// A leak budget with `min:` (or without `max:`): leak keys are limits on bytes left behind.
package struct LeakBudgetError: Error, CustomStringConvertible, Equatable, Sendable {
    package let origin: String
    package let metric: String

    package var description: String {
        "\(origin): \(metric) takes `max:` only (the most bytes allowed), not `min:`"
    }
}
