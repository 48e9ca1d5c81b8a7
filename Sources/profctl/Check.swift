import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

extension CheckFormat: ExpressibleByArgument {}

struct Check: ParsableCommand, Exemplified {
    static let examples = [
        "profctl check --baseline previous",
        "profctl check --baseline main --format markdown >> $GITHUB_STEP_SUMMARY",
        "profctl check --baseline median:5 --tolerance 1% --tolerance allocations_per_instance=0",
        "profctl check --budget budgets.yaml --format junit > profctl-junit.xml",
        "profctl check --baseline median:5 --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Fail a build when memory regresses: compare runs with a baseline and with budgets.",
        discussion: """
            Checks the newest run of every scenario (or --run, --scenario) against --baseline: \
            a run id, a label (profctl baseline), previous, or median:N (the last N complete \
            runs of the scenario on the same branch). Bytes and counts are compared exactly \
            unless --tolerance allows more; latencies are a regression only when a \
            Mann-Whitney U test over the repeats says so and the median moved more than \
            --min-effect and --min-effect-ns. --budget adds absolute limits, with or without \
            a baseline.

            Primary measurements (bytes, counts, latencies) are gated; figures derived from \
            them (saved bytes, savings %, break-even, hit ratio) are shown as context. A \
            metric of the baseline, or one a budget names, that the run lacks is `missing` \
            and fails unless --allow-missing. Aborted and running runs are refused.

            Exit codes: 0 pass, 1 error, 2 regression (or over budget), 4 improvement only \
            (with --fail-on-improvement; otherwise 0), 5 baseline not found, 6 environment \
            mismatch, 12 metrics missing and nothing worse, 13 the run or its baseline is \
            aborted or running, 64 usage (including a name that does not exist).
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

    @Flag(help: "Compare even when the baseline's Swift version, build configuration, OS or architecture differ.")
    var allowEnvMismatch = false

    @Option(help: "table, markdown, junit, github or json.")
    var format = CheckFormat.table

    func validate() throws {
        if baseline == nil && budget == nil {
            throw ValidationError("give --baseline (RUN_ID, LABEL, previous or median:N), --budget FILE, or both")
        }
        for text in tolerance where Tolerance.parse(text) == nil {
            throw ValidationError("--tolerance \(text): expected an amount (64), a percentage (2%), or metric=amount")
        }
        guard alpha > 0 && alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (got \(alpha))") }
        guard minimumEffect >= 0 else { throw ValidationError("--min-effect must be at least 0 (got \(minimumEffect))") }
    }

    func request() throws -> CheckRequest {
        var request = CheckRequest(baseline: baseline)
        for text in tolerance {
            guard let (metric, value) = Tolerance.parse(text) else { continue }
            if let metric { request.tolerances.byMetric[metric] = value } else { request.tolerances.fallback = value }
        }
        request.statistics = StatisticsOptions(alpha: alpha, minimumEffect: minimumEffect / 100,
                                               minimumEffectNanoseconds: minimumEffectNanoseconds)
        if let budget { request.budgets = try Budget.load(path: budget) }
        request.allowEnvironmentMismatch = allowEnvMismatch
        request.allowMissing = allowMissing
        return request
    }

    func run() throws {
        var outcome = CheckResult.Outcome.pass
        try reportingStoreErrors {
            let db = try store.open(database)
            let request = try request()
            try CheckNames.validate(budgets: request.budgets, in: db)
            try CheckNames.validate(toleranceMetrics: request.tolerances.byMetric.keys.sorted(), in: db)
            let runs = try selection.runs(in: db)
            let results = try runs.map { try Checker.check($0, request, in: db) }
            Console.output(CheckOutput.render(results, format: format))
            var outcomes = Set(results.map(\.outcome))
            // Checking every scenario: a budget for a scenario with no complete run checks nothing.
            if selection.runReference == nil && selection.scenario == nil {
                let checked = Set(runs.map(\.scenario))
                for budget in request.budgets where !checked.contains(budget.scenario) {
                    Console.message("profctl: budget at \(budget.origin): no complete \(budget.scenario) run to check"
                                    + (allowMissing ? " (allowed)" : "; record it, or pass --allow-missing"))
                    if !allowMissing { outcomes.insert(.missing) }
                }
            }
            outcome = [.regression, .missing, .improvement].first(where: outcomes.contains) ?? .pass
        }
        switch outcome {
        case .regression: throw ExitCode(ExitCodes.regression)
        case .missing: throw ExitCode(ExitCodes.missingMetrics)
        case .improvement where failOnImprovement: throw ExitCode(ExitCodes.improvement)
        default: return
        }
    }
}
