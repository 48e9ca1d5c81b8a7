import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI


struct Check: StoreCommand, Exemplified {
    static let examples = [
        "profctl check --baseline previous",
        "profctl check --baseline main --format markdown >> $GITHUB_STEP_SUMMARY",
        "profctl check --baseline median:5 --tolerance 1% --tolerance allocations_per_instance=0",
        "profctl check --budget budgets.yaml --format junit > profctl-junit.xml",
        "profctl check --baseline median:5 --store postgres://ci@db.example/profctl",
        "profctl check --leaks --format junit > leaks-junit.xml",
    ]

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail a build when memory regresses: compare runs with a baseline and with budgets.",
        discussion: """
            Checks the newest run of every scenario (or --run, --scenario) against --baseline: \
            a run id, a label (profctl baseline), previous, or median:N (the last N complete \
            runs of the scenario on the same branch). previous and median:N pick runs recorded \
            with the run's workload parameters (all but repeats and strategies); a baseline \
            recorded with others is refused (exit 6) unless --allow-param-mismatch. Bytes and counts are compared exactly \
            unless --tolerance allows more; latencies are a regression only when a \
            Mann-Whitney U test over the repeats says so and the median moved more than \
            --min-effect and --min-effect-ns. --budget adds absolute limits, with or without \
            a baseline.

            Primary measurements (bytes, counts, latencies) are gated; figures derived from \
            them (saved bytes, savings %, break-even, hit ratio) are shown as context. Runs \
            recorded with --types are also gated on each type's objects per instance, \
            objects_per_instance[TYPE], exactly; a run and a baseline of which only one was \
            recorded with --types are refused (exit 6). A \
            metric of the baseline, or one a budget names, that the run lacks is `missing` \
            and fails unless --allow-missing. Aborted and running runs are refused.

            Exit codes: 0 pass, 1 error, 2 regression (or outside a budget: over-budget, under-budget), 4 improvement only \
            (with --fail-on-improvement; otherwise 0), 5 baseline not found (for one of \
            several scenarios: named on stderr, the others still checked, and nothing else \
            failed), 6 environment or parameter mismatch, 12 metrics missing and nothing worse, 13 the \
            run, its baseline or a scenario's newest run is aborted or running, 64 usage \
            (including a name that does not exist), 15 leaks (with --leaks).

            --leaks checks what scenarios leave behind instead (docs/leaks.md): bytes a \
            round trip left that the scenario does not declare as kept on purpose, and live \
            bytes growing in every round of a --repeat 3 (or more) run. Budget keys \
            retained_bytes and growth_bytes_per_round (max only) allow some; --leaks takes \
            no baseline.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var store: StoreOptions

    @OptionGroup var selection: RunSelection

    @Option(help: "What to compare with: RUN_ID, LABEL, previous, or median:N.")
    var baseline: String?

    @Option(help: ArgumentHelp("Allowed worsening: 64 (bytes or counts), 2%, or metric=2% for one metric (repeatable).", valueName: "amount"))
    var tolerance: [String] = []

    @Option(help: ArgumentHelp("A YAML file of absolute limits (docs/ci.md).", valueName: "file"))
    var budget: String?

    @Option(help: "Significance level for latency tests.")
    var alpha = 0.05

    @Option(name: .customLong("min-effect"), help: ArgumentHelp("Smallest latency change that counts, in percent.", valueName: "percent"))
    var minimumEffect = 5.0

    @Option(name: .customLong("min-effect-ns"), help: ArgumentHelp("Smallest latency change that counts, in nanoseconds.", valueName: "ns"))
    var minimumEffectNanoseconds = 1000.0

    @Flag(help: "Exit 4 when there are improvements and no regressions, so baselines get refreshed.")
    var failOnImprovement = false

    @Flag(help: "Report metrics of the baseline (or of a budget) that the run lacks as missing, without failing.")
    var allowMissing = false

    @OptionGroup var mismatch: MismatchAllowance

    @Flag(help: "Check for leaks and growth (docs/leaks.md) instead of comparing with a baseline.")
    var leaks = false

    @Option(help: FormatOption<CheckFormats>.help())
    var format = FormatOption<CheckFormats>(.table)

    mutating func validate() throws {
        if baseline?.isEmpty == true { throw ValidationError("--baseline is empty; give RUN_ID, LABEL, previous or median:N") }
        if leaks && baseline != nil {
            throw ValidationError("--leaks compares no baseline: run `profctl check --leaks` and `profctl check --baseline \(baseline ?? "")` as two commands")
        }
        if leaks && (!tolerance.isEmpty || failOnImprovement || allowMissing || mismatch.allowEnvMismatch || mismatch.allowParameterMismatch) {
            throw ValidationError("--leaks takes no --tolerance, --fail-on-improvement, --allow-missing, --allow-env-mismatch or --allow-param-mismatch: they apply to comparisons with a baseline; leak limits are budget keys (docs/leaks.md)")
        }
        if leaks && store.url != nil {
            throw ValidationError("--leaks reads a SQLite database (--db): the PostgreSQL store has no round_trip views yet (docs/leaks.md)")
        }
        if baseline == nil && budget == nil && !leaks {
            throw ValidationError("give --baseline (RUN_ID, LABEL, previous or median:N), --budget FILE, or both; or --leaks")
        }
        // "=2%" would otherwise read as a tolerance for every metric: the name was forgotten.
        for text in tolerance where text.hasPrefix("=") {
            throw ValidationError("--tolerance \(text): a metric name goes before '=' (metric=amount), or leave '=' out for every metric")
        }
        // Read here for the usage error (exit 64), and again by request(): a stored property
        // beside the options would cost the parse a protocol-conformance scan of its own type.
        _ = try readTolerances()
        guard alpha > 0 && alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (got \(alpha))") }
        guard minimumEffect >= 0 && minimumEffect.isFinite else {
            throw ValidationError("--min-effect must be a number of at least 0 (got \(minimumEffect))")
        }
        // NaN compares false with everything: it would silently turn every latency regression into a pass.
        guard minimumEffectNanoseconds >= 0 && minimumEffectNanoseconds.isFinite else {
            throw ValidationError("--min-effect-ns must be a number of at least 0 (got \(minimumEffectNanoseconds))")
        }
    }

    /// Each --tolerance parsed, the last one for a metric (or for every metric) winning.
    func readTolerances() throws -> Tolerances {
        var tolerances = Tolerances()
        for text in tolerance {
            guard let (metric, value) = Tolerance.parse(text) else {
                throw ValidationError("--tolerance \(text): expected an amount (64), a percentage (2%), or metric=amount")
            }
            if let metric { tolerances.byMetric[metric] = value } else { tolerances.fallback = value }
        }
        return tolerances
    }

    func request() throws -> CheckRequest {
        var request = CheckRequest(baseline: baseline)
        request.tolerances = try readTolerances()
        request.statistics = StatisticsOptions(alpha: alpha, minimumEffect: minimumEffect / 100,
                                               minimumEffectNanoseconds: minimumEffectNanoseconds)
        if let budget {
            let all = try Budget.load(path: budget)
            // Leak keys are read by `check --leaks` alone.
            request.budgets = all.filter { !LeakRules.budgetKeys.contains($0.metric) }
            if request.budgets.isEmpty && !all.isEmpty {
                Console.error("\(budget) holds only leak budgets (\(LeakRules.budgetKeys.joined(separator: ", "))): add --leaks to check them")
                throw ExitCode(ExitCodes.usage)
            }
        }
        request.allowEnvironmentMismatch = mismatch.allowEnvMismatch
        request.allowParameterMismatch = mismatch.allowParameterMismatch
        request.allowMissing = allowMissing
        return request
    }

    func execute() throws {
        if leaks { return try runLeaks() }
        let db = try store.open(database)
        let request = try request()
        try Self.requireUsable(budgets: request.budgets, file: budget)
        try CheckNames.validate(budgets: request.budgets, in: db)
        try CheckNames.validate(toleranceMetrics: request.tolerances.byMetric.keys.sorted(), origin: "--tolerance", in: db)
        let runs = try selection.runs(in: db)
        if selection.runReference == nil { try Self.requireNewestComplete(scenario: selection.scenario, in: db) }
        // (Checking every scenario, a budget's scenario without a run is `no-run`, exit 12, below.)
        if request.baseline == nil, let budget, selection.runReference != nil || selection.scenario != nil {
            try Self.requireBudgetApplies(request.budgets, file: budget, to: runs)
        }
        // A scenario without a baseline (new in this branch) must not stop the others
        // from being checked: its regressions would go unseen behind exit 5.
        var results: [CheckResult] = []
        var unchecked: [UncheckedScenario] = []
        for run in runs {
            // Budgets only, none for this scenario: nothing gates it ("PASS, 0 metrics" would claim it was).
            if request.baseline == nil, let budget, !request.budgets.contains(where: { $0.scenario == run.scenario }) {
                unchecked.append(UncheckedScenario(scenario: run.scenario, reason: .noBudget,
                                                   note: "\(budget) has no budget for \(run.scenario) and no --baseline was given, so nothing gates it; "
                                                       + "add a budget for it, or give --baseline", fails: false))
                continue
            }
            do {
                if let spec = request.baseline { try Self.requireComparable(run, baseline: spec, in: db) }
                results.append(try Checker.check(run, request, in: db))
            } catch let error as CheckError {
                // Listed as not checked in every format (exit 5 when nothing else fails),
                // for one scenario as for several: stdout is never empty on exit 5.
                guard case .baselineNotFound = error else { throw error }
                unchecked.append(UncheckedScenario(scenario: run.scenario, reason: .noBaseline, note: "\(error)", fails: false))
            }
        }
        // Checking every scenario: a budget for a scenario with no complete run checks nothing.
        if selection.runReference == nil && selection.scenario == nil {
            let checked = Set(runs.map(\.scenario))
            for budget in request.budgets where !checked.contains(budget.scenario) {
                let note = "budget at \(budget.origin): no complete \(budget.scenario) run to check"
                    + (allowMissing ? " (allowed)" : "; record it, or pass --allow-missing")
                unchecked.append(UncheckedScenario(scenario: budget.scenario, reason: .noRun, note: note, fails: !allowMissing))
            }
        }
        Console.output(try CheckOutput.render(results, unchecked: unchecked, format: format.format, advice: FlagAdvice.check))
        for u in unchecked {
            Console.message("profctl: not checked, \(u.note)" + (u.reason == .noBaseline && !results.isEmpty ? "; the other scenarios were" : ""))
        }
        // Byte regressions of runs recorded with --sites: which code allocated the difference.
        // Explanatory only, never part of the verdict (a store without sites tables has none).
        let explanations: [[SiteRegression]]
        do {
            explanations = try db.hasRelation("site_runs") ? results.map { try SiteRegression.explain($0, in: db) } : []
        } catch {
            explanations = []
            Console.message("profctl: could not name the allocation sites of a regression (the verdict stands): \(error)")
        }
        for explainedResult in explanations {
            for explained in explainedResult {
                let limit = 10
                let all = explained.differences.count > limit
                    ? "\n  all of them: profctl sites --diff \(explained.baselineRunID.prefix(8)) \(explained.runID.prefix(8)) --component \(explained.component)" : ""
                Console.message("profctl: " + explained.message(limit: limit) + all)
            }
        }
        let outcome = CheckOverall(results, unchecked: unchecked)
        switch outcome {
        case .regression: throw ExitCode(ExitCodes.regression)
        case .missing: throw ExitCode(ExitCodes.missingMetrics)
        case .notChecked: throw ExitCode(ExitCodes.baselineNotFound)
        case .improvement where failOnImprovement: throw ExitCode(ExitCodes.improvement)
        default: return
        }
    }

    /// `--leaks`: the round-trip and growth verdicts of every run selected. Fails closed:
    /// a budget metric that is neither a leak key nor a metric of its scenario is a typo
    /// (exit 64, its line), a run with nothing judged and a leak budget's scenario without
    /// a run are missing (exit 12), never a pass.
    func runLeaks() throws {
        let db = try store.open(database)
        let budgets = try budget.map { try Budget.load(path: $0) } ?? []
        let leakBudgets = LeakCheck.leakBudgets(budgets)
        // The other budgets are ignored by --leaks, but their names are checked like
        // without it: `growth_bytes_per_roud` is a misspelt leak key, not another metric.
        do {
            try CheckNames.validate(budgets: budgets.filter { !LeakRules.budgetKeys.contains($0.metric) }, in: db)
        } catch let unknown as UnknownNameError where unknown.kind == "metric" {
            throw UnknownNameError(kind: unknown.kind, name: unknown.name, origin: unknown.origin, scope: unknown.scope,
                                   known: (unknown.known + LeakRules.budgetKeys).sorted(),
                                   hint: "--leaks reads \(LeakRules.budgetKeys.joined(separator: " and ")); the others are metrics of check without --leaks")
        }
        if let budget, leakBudgets.isEmpty {
            Console.error("\(budget) has no leak budgets (\(LeakRules.budgetKeys.joined(separator: ", "))), so --leaks would gate nothing in it; add one, or leave --budget out")
            throw ExitCode(ExitCodes.usage)
        }
        try LeakCheck.validate(budgets: budgets, in: db)
        let ignored = budgets.count - leakBudgets.count
        if ignored > 0 { Console.message("profctl: note: \(ignored) budget\(ignored == 1 ? "" : "s") of other metrics ignored by --leaks") }
        let runs = try selection.runs(in: db)
        if selection.runReference == nil { try Self.requireNewestComplete(scenario: selection.scenario, in: db) }
        if let budget, selection.runReference != nil || selection.scenario != nil {
            try Self.requireBudgetApplies(leakBudgets, file: budget, to: runs)
        }
        let results = try runs.map { try LeakCheck.check($0, budgets: budgets, in: db) }
        var unchecked: [UncheckedScenario] = []
        if selection.runReference == nil && selection.scenario == nil {
            let checked = Set(runs.map(\.scenario))
            var seen = Set<String>()
            for leakBudget in leakBudgets where !checked.contains(leakBudget.scenario) && seen.insert(leakBudget.scenario).inserted {
                unchecked.append(UncheckedScenario(scenario: leakBudget.scenario, reason: .noRun,
                                                   note: "leak budget at \(leakBudget.origin): no complete \(leakBudget.scenario) run to check; record it (--repeat 3)",
                                                   fails: true))
            }
        }
        Console.output(try LeakOutput.render(results, unchecked: unchecked, format: format.format))
        for u in unchecked { Console.message("profctl: not checked, \(u.note)") }
        for result in results where result.nothingJudged {
            Console.message("profctl: \(result.run.scenario) run \(result.run.runID.prefix(8)) has no events: nothing judged, which fails as missing")
        }
        let outcome = LeakOutput.outcome(results, unchecked)
        switch outcome {
        case .leaks: throw ExitCode(ExitCodes.leaks)
        case .missing: throw ExitCode(ExitCodes.missingMetrics)
        case .pass: return
        }
    }

    /// A baseline given by run id or `latest` can name the run being checked (it would
    /// pass whatever it holds) or a run of another scenario (nothing would match): both
    /// are usage mistakes, exit 64. Labels, previous and median:N pick runs of the run's
    /// own scenario by themselves (a label on the run checked is left alone: a merged
    /// history can hold a labelled scenario that this build did not record).
    static func requireComparable(_ run: RunInfo, baseline spec: String, in db: any SQLRowSource) throws {
        if spec == "previous" || spec.hasPrefix("median:") { return }
        if try Baselines.exists(spec, in: db) { return }
        let checked = "\(run.scenario) run \(run.runID.prefix(8))"
        for baseline in try BaselineResolver.resolve(spec, for: run, in: db) {
            let problem: String
            if baseline.runID == run.runID {
                problem = "resolves to \(checked), the run being checked: a run cannot be its own baseline; "
                    + "use previous, a label, or an earlier run's id"
            } else if baseline.scenario != run.scenario {
                problem = "resolves to \(baseline.scenario) run \(baseline.runID.prefix(8)), but the run checked is \(checked): "
                    + "a baseline is a run of the same scenario (previous, a label, or a \(run.scenario) run's id)"
            } else {
                continue
            }
            Console.error("--baseline \(spec) \(problem)")
            throw ExitCode(ExitCodes.usage)
        }
    }

    /// A budgets file that gates nothing, or a budget no value can keep to, is a mistake in
    /// the file (exit 64), not a pass or a certain failure.
    static func requireUsable(budgets: [Budget], file: String?) throws {
        if let file, budgets.isEmpty {
            Console.error("\(file): the budgets list is empty, so it would gate nothing; add a budget, or leave --budget out")
            throw ExitCode(ExitCodes.usage)
        }
        for budget in budgets {
            guard let min = budget.min, let max = budget.max, min > max else { continue }
            Console.error("\(budget.origin): min \(String(format: "%g", min)) is above max \(String(format: "%g", max)): no value keeps to it")
            throw ExitCode(ExitCodes.usage)
        }
    }

    /// A budgets-only check (no --baseline) of runs none of whose scenarios the file has a
    /// budget for gates nothing: "0 metrics, PASS" would hide that the file is for other
    /// scenarios (or the --scenario or --run is the wrong one). A usage mistake, exit 64.
    static func requireBudgetApplies(_ budgets: [Budget], file: String, to runs: [RunInfo]) throws {
        let budgeted = Set(budgets.map(\.scenario))
        let checked = Set(runs.map(\.scenario))
        guard budgeted.isDisjoint(with: checked), !checked.isEmpty else { return }
        Console.error("\(file) has no budget for \(checked.sorted().joined(separator: ", ")), the scenario checked, so it would gate nothing; "
            + "its budgets are for: \(budgeted.sorted().joined(separator: ", ")). Check one of those, add a budget, or give --baseline")
        throw ExitCode(ExitCodes.usage)
    }

    /// Checking the newest runs (no --run): a scenario whose newest run is aborted or still
    /// running failed its last recording, so checking the complete run before it would
    /// pass what was never measured. Refused like an aborted run named with --run.
    static func requireNewestComplete(scenario: String?, in db: any SQLRowSource) throws {
        var seen = Set<String>()
        for run in try RunQueries.list(db, limit: Int.max) where scenario == nil || run.scenario == scenario {
            guard seen.insert(run.scenario).inserted else { continue }
            try Checker.requireComplete(run, as: "the newest \(run.scenario) run")
        }
    }
}
