import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("Mann-Whitney U")
struct MannWhitneyTests {
    @Test("completely separated samples of 5 and 5 give the exact two-sided p of 2/252")
    func separated() throws {
        let result = try #require(MannWhitney.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]))
        #expect(result.u == 0)
        #expect(abs(result.pValue - 2.0 / 252.0) < 1e-12)
    }

    @Test("identical distributions are not called different")
    func same() throws {
        let result = try #require(MannWhitney.test([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]))
        #expect(result.pValue > 0.5)
    }

    @Test("with ties the normal approximation is used and stays within [0, 1]")
    func ties() throws {
        let result = try #require(MannWhitney.test([1, 1, 2, 2, 3, 3, 3], [3, 3, 4, 4, 5, 5, 5]))
        #expect(result.pValue > 0 && result.pValue < 0.05)
        #expect(try #require(MannWhitney.test([2, 2, 2], [2, 2, 2])).pValue == 1)
    }

    @Test("three repeats against three can never reach p < 0.05")
    func tooFew() {
        #expect(MannWhitney.smallestPValue(n1: 3, n2: 3) == 0.1)
        #expect(MannWhitney.smallestPValue(n1: 4, n2: 4) < 0.05)
    }
}

@Suite("Check engine")
struct CheckEngineTests {
    func key(_ name: String, strategy: String = "eager") -> MetricKey {
        MetricKey(scenario: "s", component: "Label", strategy: strategy, name: name)
    }

    @Test("bytes are exact: one byte more is a regression, one less an improvement")
    func exact() {
        let before = [Metric(key: key("bytes"), value: 705, polarity: .smallerIsBetter)]
        let more = CheckEngine.compare(current: [Metric(key: key("bytes"), value: 706, polarity: .smallerIsBetter)], baselines: [before])
        #expect(more.map(\.status) == [.regression])
        let less = CheckEngine.compare(current: [Metric(key: key("bytes"), value: 704, polarity: .smallerIsBetter)], baselines: [before])
        #expect(less.map(\.status) == [.improvement])
        let same = CheckEngine.compare(current: before, baselines: [before])
        #expect(same.map(\.status) == [.pass])
    }

    @Test("allocations per instance move by two allocations per run without regressing; more is a regression")
    func allocationSlack() {
        // live-room's comment-row, lazy: 5 instances, 38 or 37 allocations in identical runs
        // (before regions saw exact-split usable sizes: docs/hooks.md).
        func perInstance(_ value: Double) -> Metric {
            Metric(key: key("allocations_per_instance", strategy: "lazy"), value: value, polarity: .smallerIsBetter,
                   slack: RunMetric.allocationsPerInstance.slack(measured: 5))
        }
        let noise = CheckEngine.compare(current: [perInstance(7.4)], baselines: [[perInstance(7.6)]])
        #expect(noise.map(\.status) == [.pass])
        #expect(noise.first?.note.contains("2 allocations per run") == true)
        let oneMoreEach = CheckEngine.compare(current: [perInstance(8.6)], baselines: [[perInstance(7.6)]])
        #expect(oneMoreEach.map(\.status) == [.regression])
        let oneFewerEach = CheckEngine.compare(current: [perInstance(6.6)], baselines: [[perInstance(7.6)]])
        #expect(oneFewerEach.map(\.status) == [.improvement])
    }

    @Test("tolerances in bytes, in percent, and per metric")
    func tolerances() throws {
        let before = [Metric(key: key("bytes"), value: 1000, polarity: .smallerIsBetter)]
        let after = [Metric(key: key("bytes"), value: 1015, polarity: .smallerIsBetter)]
        var t = Tolerances()
        t.fallback = try #require(Tolerance.parse("16")).tolerance
        #expect(CheckEngine.compare(current: after, baselines: [before], tolerances: t).map(\.status) == [.pass])
        t.fallback = try #require(Tolerance.parse("1%")).tolerance
        #expect(CheckEngine.compare(current: after, baselines: [before], tolerances: t).map(\.status) == [.regression])
        t.byMetric["bytes"] = try #require(Tolerance.parse("bytes=2%")).tolerance
        #expect(CheckEngine.compare(current: after, baselines: [before], tolerances: t).map(\.status) == [.pass])
        #expect(Tolerance.parse("x=") == nil && Tolerance.parse("-3") == nil && Tolerance.parse("lots") == nil)
    }

    @Test("larger-is-better metrics regress when they fall")
    func polarity() {
        let before = [Metric(key: key("hit_ratio"), value: 0.9, polarity: .largerIsBetter)]
        let after = [Metric(key: key("hit_ratio"), value: 0.8, polarity: .largerIsBetter)]
        #expect(CheckEngine.compare(current: after, baselines: [before]).map(\.status) == [.regression])
    }

    @Test("latencies: a clear, large shift over enough repeats regresses; too few repeats is inconclusive; noise passes")
    func latencies() {
        func latency(_ samples: [Double]) -> Metric {
            Metric(key: key("create_ns@build"), value: median(samples), polarity: .smallerIsBetter, kind: .latency(samples: samples))
        }
        let base = latency([10_000, 10_100, 9_900, 10_050, 9_950])
        #expect(CheckEngine.compare(current: [latency([13_000, 13_100, 12_900, 13_050, 12_950])], baselines: [[base]]).map(\.status) == [.regression])
        #expect(CheckEngine.compare(current: [latency([10_020, 10_080, 9_920, 10_060, 9_970])], baselines: [[base]]).map(\.status) == [.pass])
        #expect(CheckEngine.compare(current: [latency([13_000, 13_100])], baselines: [[latency([10_000, 10_100])]]).map(\.status) == [.inconclusive])
        // Significant but below the absolute floor: not a regression.
        let small = latency([100, 101, 99, 100, 102])
        #expect(CheckEngine.compare(current: [latency([150, 151, 149, 150, 152])], baselines: [[small]]).map(\.status) == [.pass])
    }

    @Test("median:N takes the median of the baseline runs")
    func medianBaseline() {
        let runs = [700.0, 705, 900].map { [Metric(key: key("bytes"), value: $0, polarity: .smallerIsBetter)] }
        let verdicts = CheckEngine.compare(current: [Metric(key: key("bytes"), value: 705, polarity: .smallerIsBetter)], baselines: runs)
        #expect(verdicts.first?.baseline == 705 && verdicts.first?.status == .pass)
    }

    @Test("budgets apply with or without a baseline")
    func budgets() throws {
        let budgets = try Budget.parse("""
            budgets:
              - scenario: s
                component: Label
                metric: bytes
                max: 700
              - scenario: s
                metric: hit_ratio
                min: 0.5
            """, path: "b.yaml")
        #expect(budgets.count == 2)
        let ratio = Metric(key: key("hit_ratio"), value: 0.6, polarity: .largerIsBetter)
        let over = CheckEngine.compare(current: [Metric(key: key("bytes"), value: 705, polarity: .smallerIsBetter), ratio],
                                       baselines: [], budgets: budgets)
        #expect(over.map(\.status) == [.overBudget, .pass])
        #expect(over.first?.note.contains("b.yaml:2") == true)
        // Below a min is under the budget, not over it, and fails the same way.
        let low = CheckEngine.compare(current: [Metric(key: key("hit_ratio"), value: 0.4, polarity: .largerIsBetter)],
                                      baselines: [], budgets: [budgets[1]])
        #expect(low.map(\.status) == [.underBudget])
        #expect(low.first?.status.rawValue == "under-budget" && low.first?.fails == true)
        // A budget that matches no metric of the run checks nothing: it is missing, and fails.
        let unmatched = CheckEngine.compare(current: [ratio], baselines: [], budgets: budgets)
        #expect(unmatched.map(\.status) == [.pass, .missing])
        #expect(unmatched.last?.fails == true)
        #expect(CheckEngine.compare(current: [ratio], baselines: [], budgets: budgets, allowMissing: true).contains { $0.fails } == false)
    }

    @Test("derived figures are context: never a regression, never an improvement")
    func derivedIsContext() {
        let before = [Metric(key: key("bytes"), value: 700, polarity: .smallerIsBetter),
                      Metric(key: key("saved_bytes"), value: 100, polarity: .largerIsBetter, role: .derived)]
        let after = [Metric(key: key("bytes"), value: 690, polarity: .smallerIsBetter),
                     Metric(key: key("saved_bytes"), value: 90, polarity: .largerIsBetter, role: .derived)]
        let verdicts = CheckEngine.compare(current: after, baselines: [before])
        #expect(verdicts.map(\.status) == [.improvement, .context])
        #expect(!verdicts.contains { $0.fails })
        #expect(MetricCatalog.use(ofColumn: "saved_bytes", in: .savings) == .metric(.derived, .largerIsBetter))
        #expect(MetricCatalog.use(ofColumn: "bytes_per_instance", in: .savings) == .metric(.primary, .smallerIsBetter))
    }

    @Test("a metric the run lacks is missing and fails unless allowed")
    func missingFails() {
        let before = [Metric(key: key("bytes"), value: 700, polarity: .smallerIsBetter),
                      Metric(key: key("bytes", strategy: "lazy"), value: 48, polarity: .smallerIsBetter)]
        let after = [Metric(key: key("bytes"), value: 700, polarity: .smallerIsBetter)]
        let strict = CheckEngine.compare(current: after, baselines: [before])
        #expect(strict.map(\.status) == [.pass, .missing])
        #expect(strict.last?.fails == true)
        let run = RunInfo(row: [SQLValue](repeating: .text("x"), count: 20))
        #expect(CheckResult(run: run, baselines: [], verdicts: strict).outcome == .missing)
        let allowed = CheckEngine.compare(current: after, baselines: [before], allowMissing: true)
        #expect(allowed.last?.status == .missing && allowed.last?.fails == false)
        #expect(CheckResult(run: run, baselines: [], verdicts: allowed).outcome == .pass)
    }

    @Test("parameters: the same text differs in nothing, nor do the same values in another order; another value is named")
    func parameterDifferencesByText() {
        func run(_ id: String, _ parameters: String) -> RunInfo {
            RunInfo([.text(id), .text(parameters)], columns: ["run_id": 0, "parameters": 1])
        }
        let now = run("aaaaaaaa-1", #"{"instances":60,"repeats":1,"strategies":["eager","lazy"]}"#)
        #expect(BaselineResolver.parameterDifferences(now, [run("bbbbbbbb-1", now.parameters)]).isEmpty)
        #expect(BaselineResolver.parameterDifferences(now, [run("bbbbbbbb-1", #"{"strategies":["eager","lazy"],"repeats":1,"instances":60}"#)]).isEmpty)
        let other = run("bbbbbbbb-1", #"{"instances":5,"repeats":3,"strategies":["eager","lazy"]}"#)
        #expect(BaselineResolver.parameterDifferences(now, [other]) == ["instances 5 in bbbbbbbb vs 60", "repeats 3 in bbbbbbbb vs 1"])
        #expect(BaselineResolver.workloadDifferences(now, [other]) == ["instances 5 in bbbbbbbb vs 60"])
        #expect(BaselineResolver.parameterDifferences(now, [run("cccccccc-1", now.parameters), other]).count == 2)
    }

    @Test("a run's column names, split without Foundation, are the names SELECT lists")
    func runColumnNames() {
        #expect(RunInfo.columnNames == RunInfo.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(RunInfo.columnNames.first == "run_id" && RunInfo.columnNames.last == "arc_toolchain")
        #expect(RunInfo.positions.count == RunInfo.columnNames.count)
        #expect(RunInfo.positions["parameters"] == RunInfo.columnNames.firstIndex(of: "parameters"))
    }

    @Test("a budgets file with a mistake says where", arguments: [
        ("budgets: 3\n", 1, 10, "must be a list"),
        ("budgets:\n  - scenario: s\n    metric: m\n", 2, 5, "needs `max:` or `min:`"),
        ("budgets:\n  - scenario: s\n    metric: m\n    max: lots\n", 4, 10, "must be a number"),
        ("budgets:\n  - scenario: s\n    metrik: m\n", 3, 5, "unknown key 'metrik'"),
    ])
    func budgetMistakes(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try Budget.parse(text, path: "b.yaml")
        } throws: { error in
            guard let e = error as? ScenarioFileError else { return false }
            return e.line == line && e.column == column && e.message.contains(message)
        }
    }

    @Test("CI variables of GitHub Actions and GitLab are read into the run")
    func ciContext() {
        let github = CIContext.detect(environment: ["GITHUB_ACTIONS": "true", "GITHUB_REF": "refs/pull/42/merge",
                                                    "GITHUB_HEAD_REF": "feature", "GITHUB_RUN_ID": "99", "GITHUB_RUN_ATTEMPT": "2"],
                                      directory: "/")
        #expect(github == CIContext(provider: "github", branch: "feature", job: "99.2", pullRequest: "42"))
        let gitlab = CIContext.detect(environment: ["GITLAB_CI": "true", "CI_COMMIT_REF_NAME": "main", "CI_JOB_ID": "7"], directory: "/")
        #expect(gitlab == CIContext(provider: "gitlab", branch: "main", job: "7", pullRequest: nil))
        let plain = CIContext.detect(environment: ["CI": "true", "BRANCH_NAME": "dev"], directory: "/")
        #expect(plain.provider == "ci" && plain.branch == "dev")
    }
}
