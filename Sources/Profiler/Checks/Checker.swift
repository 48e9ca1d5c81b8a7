/// What a check compares against and how strictly.
public struct CheckRequest: Sendable {
    /// A run id, label, `previous` or `median:N`; nil to check budgets only.
    public var baseline: String?
    public var tolerances = Tolerances()
    public var statistics = StatisticsOptions()
    public var budgets: [Budget] = []
    public var allowEnvironmentMismatch = false

    public init(baseline: String?) { self.baseline = baseline }
}

/// Runs one check: finds the baseline, refuses unlike environments, compares.
public enum Checker {
    public static func check(_ run: RunInfo, _ request: CheckRequest, in db: SQLiteConnection) throws -> CheckResult {
        let baselines = try request.baseline.map { try BaselineResolver.resolve($0, for: run, in: db) } ?? []
        let differences = BaselineResolver.environmentDifferences(run, baselines)
        if !differences.isEmpty && !request.allowEnvironmentMismatch {
            throw CheckError.environmentMismatch(differences)
        }
        let current = try MetricCatalog.metrics(of: run, in: db)
        let before = try baselines.map { try MetricCatalog.metrics(of: $0, in: db) }
        let verdicts = CheckEngine.compare(current: current, baselines: before, tolerances: request.tolerances,
                                           statistics: request.statistics, budgets: request.budgets)
        return CheckResult(run: run, baselines: baselines, verdicts: verdicts)
    }
}
