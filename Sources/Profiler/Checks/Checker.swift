import ProfilerModel
import ProfilerStore

/// What a check compares against and how strictly.
package struct CheckRequest: Sendable {
    /// A run id, label, `previous` or `median:N`; nil to check budgets only.
    package var baseline: String?
    package var tolerances = Tolerances()
    package var statistics = StatisticsOptions()
    package var budgets: [Budget] = []
    package var allowEnvironmentMismatch = false
    /// Compare with a baseline recorded with other workload parameters (notes name them).
    package var allowParameterMismatch = false
    /// Report metrics the run lacks as `missing` without failing.
    package var allowMissing = false

    package init(baseline: String?) { self.baseline = baseline }
}

/// Runs one check: finds the baseline, refuses unlike environments, compares.
package enum Checker {
    package static func check(_ run: RunInfo, _ request: CheckRequest, in db: any SQLRowSource) throws -> CheckResult {
        try requireComplete(run, as: "the run to check")
        let baselines = try request.baseline.map {
            try BaselineResolver.resolve($0, for: run, sameParameters: !request.allowParameterMismatch, in: db)
        } ?? []
        for baseline in baselines { try requireComplete(baseline, as: "the baseline") }
        try requireComparable(run, with: baselines, allowEnvironmentMismatch: request.allowEnvironmentMismatch,
                              allowParameterMismatch: request.allowParameterMismatch)
        // Objects per type exist only in runs recorded with --types: against a baseline
        // without them every type would read as new, and the other way round as missing.
        if !request.allowEnvironmentMismatch, let mixed = try TypeMetric.mismatch([run] + baselines, in: db) {
            throw CheckError.environmentMismatch([typesDifference(mixed)])
        }
        var result = try compare(run, against: baselines, request, in: db)
        if let spec = request.baseline, spec.hasPrefix("median:"), let count = Int(spec.dropFirst("median:".count)), baselines.count < count {
            result.notes.append("\(spec) is the median of \(baselines.count) run\(baselines.count == 1 ? "" : "s"), not \(count): "
                + "only \(baselines.count) complete \(run.scenario) run\(baselines.count == 1 ? "" : "s") "
                + (request.allowParameterMismatch ? "" : "with these parameters ") + "on branch \(run.branch ?? "(none)") before this one")
        }
        return result
    }

    /// Compares a run's metrics with its baselines' (and budgets), as given: no baseline is
    /// looked up, and neither completeness nor environments are required (`profctl
    /// compare` notes those instead of refusing).
    package static func compare(_ run: RunInfo, against baselines: [RunInfo], _ request: CheckRequest,
                               in db: any SQLRowSource) throws -> CheckResult {
        // One read for the run and its baselines: the report catalogue is loaded once and each
        // report's view read once for all of them (the second read cost 2.3M instructions of a check).
        let metrics = try MetricCatalog.metrics(of: [run] + baselines, in: db)
        var current = metrics.first ?? []
        var before = Array(metrics.dropFirst())
        var notes = BaselineResolver.parameterDifferences(run, baselines).map { "parameters differ from the baseline: " + $0 }
        if !baselines.isEmpty, let mixed = try TypeMetric.mismatch([run] + baselines, in: db) {
            // Allowed (or `compare`): the sides do not both have types, so none is compared.
            func untyped(_ metrics: [Metric]) -> [Metric] { metrics.filter { TypeMetricName($0.key.name) == nil } }
            current = untyped(current)
            before = before.map(untyped)
            notes.append("objects per type not compared: " + typesDifference(mixed))
        } else if !baselines.isEmpty {
            (current, before) = TypeMetric.complete(current: current, baselines: before)
        }
        let verdicts = CheckEngine.compare(current: current, baselines: before, tolerances: request.tolerances,
                                           statistics: request.statistics, budgets: request.budgets,
                                           allowMissing: request.allowMissing, checkedScenario: run.scenario)
        return CheckResult(run: run, baselines: baselines, verdicts: TypeMetric.explain(verdicts), notes: notes)
    }

    /// How an environment difference about type capture starts: what profctl's advice
    /// recognises it by.
    package static let typesDifferencePrefix = "types captured"

    /// "types captured in 1a2b3c4d, not in 5e6f7a8b".
    static func typesDifference(_ mixed: (withTypes: [String], without: [String])) -> String {
        "\(typesDifferencePrefix) in \(mixed.withTypes.joined(separator: ", ")), not in \(mixed.without.joined(separator: ", "))"
    }

    /// The rule for comparing one run's figures with others' (a check with its baselines,
    /// `sites --diff` B with A): refused with ``CheckError/environmentMismatch(_:)`` when they
    /// were recorded with another Swift, build configuration, OS or architecture, and with
    /// ``CheckError/parameterMismatch(_:)`` when with another workload (rows 100 against 500:
    /// the workload's change would read as a regression or an improvement), unless allowed.
    package static func requireComparable(_ run: RunInfo, with others: [RunInfo], allowEnvironmentMismatch: Bool,
                                         allowParameterMismatch: Bool) throws {
        let differences = BaselineResolver.environmentDifferences(run, others)
        if !differences.isEmpty && !allowEnvironmentMismatch {
            throw CheckError.environmentMismatch(differences)
        }
        let workload = BaselineResolver.workloadDifferences(run, others)
        if !workload.isEmpty && !allowParameterMismatch {
            throw CheckError.parameterMismatch(workload)
        }
    }

    /// An aborted or running run holds partial figures: never a result to gate on.
    package static func requireComplete(_ run: RunInfo, as role: String) throws {
        guard run.status == RunInfo.complete else {
            throw CheckError.runNotComplete(role: role, run: String(run.runID.prefix(8)), scenario: run.scenario,
                                            status: run.status, reason: run.error)
        }
    }
}
