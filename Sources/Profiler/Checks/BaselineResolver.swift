/// Why a check cannot compare.
public enum CheckError: Error, CustomStringConvertible, Equatable, Sendable {
    case baselineNotFound(String)
    case environmentMismatch([String])
    case invalidBaseline(String)

    public var description: String {
        switch self {
        case .baselineNotFound(let what): "baseline not found: \(what)"
        case .environmentMismatch(let differences):
            "the baseline was recorded in another environment (\(differences.joined(separator: "; "))); "
                + "compare like with like, or pass --allow-env-mismatch"
        case .invalidBaseline(let text):
            "--baseline \(text): expected a run id, a label (profctl baseline list), previous, or median:N"
        }
    }
}

/// Finds the runs a check compares against: a run id or prefix, a label, `previous`
/// (the newest complete run of the same scenario before this one), or `median:N` (the
/// last N complete runs of the same scenario on the same branch).
public enum BaselineResolver {
    public static func resolve(_ spec: String, for run: RunInfo, in db: SQLiteConnection) throws -> [RunInfo] {
        if spec == "previous" {
            let rows = try db.rows("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND scenario = ? AND started_at < ? AND run_id <> ?
                ORDER BY started_at DESC LIMIT 1
                """, [.text(run.scenario), .text(run.startedAt), .text(run.runID)])
            guard let row = rows.first else { throw CheckError.baselineNotFound("no complete \(run.scenario) run before \(run.runID.prefix(8))") }
            return [RunInfo(row: row)]
        }
        if spec.hasPrefix("median:") {
            guard let count = Int(spec.dropFirst("median:".count)), count >= 1 else { throw CheckError.invalidBaseline(spec) }
            let rows = try db.rows("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND scenario = ?1 AND started_at < ?2 AND run_id <> ?3
                  AND (branch IS ?4)
                ORDER BY started_at DESC LIMIT ?5
                """, [.text(run.scenario), .text(run.startedAt), .text(run.runID), SQLValue(run.branch), .init(count)])
            guard !rows.isEmpty else {
                throw CheckError.baselineNotFound("no complete \(run.scenario) run before this one on branch \(run.branch ?? "(none)")")
            }
            return rows.map(RunInfo.init(row:))
        }
        if let labelled = try Baselines.run(named: spec, scenario: run.scenario, in: db) { return [labelled] }
        if try Baselines.exists(spec, in: db) {
            throw CheckError.baselineNotFound("label '\(spec)' has no \(run.scenario) run (profctl baseline set \(spec) --run ID)")
        }
        do {
            return [try RunQueries.resolve(spec, in: db)]
        } catch StoreError.runNotFound {
            throw CheckError.baselineNotFound("no label or run '\(spec)' (labels: profctl baseline list)")
        }
    }

    /// Differences in Swift version, build configuration, OS or architecture.
    public static func environmentDifferences(_ run: RunInfo, _ baselines: [RunInfo]) -> [String] {
        var differences: [String] = []
        for baseline in baselines {
            for (key, value) in run.environmentKey.sorted(by: { $0.key < $1.key }) where baseline.environmentKey[key] != value {
                differences.append("\(key) \(baseline.environmentKey[key] ?? "?") in \(baseline.runID.prefix(8)) vs \(value)")
            }
        }
        return Array(Set(differences)).sorted()
    }
}
