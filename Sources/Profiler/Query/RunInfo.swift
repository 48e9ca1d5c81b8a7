/// One row of the runs table.
public struct RunInfo: Sendable, Equatable, Codable {
    public let runID: String
    public let scenario: String
    public let status: String
    public let startedAt: String
    public let endedAt: String?
    public let gitCommit: String?
    public let branch: String?
    public let ciProvider: String?
    public let ciJob: String?
    public let pullRequest: String?
    public let host: String
    public let os: String
    public let arch: String
    public let swiftVersion: String
    public let buildConfiguration: String
    public let toolVersion: String
    public let baselineStrategy: String
    public let report: String
    public let parameters: String
    public let error: String?

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", scenario, status, startedAt = "started_at", endedAt = "ended_at"
        case gitCommit = "git_commit", branch, ciProvider = "ci_provider", ciJob = "ci_job", pullRequest = "pull_request"
        case host, os, arch, swiftVersion = "swift_version"
        case buildConfiguration = "build_configuration", toolVersion = "tool_version"
        case baselineStrategy = "baseline_strategy", report, parameters, error
    }

    static let columns = """
        run_id, scenario, status, started_at, ended_at, git_commit, host, os, arch, swift_version,
        build_configuration, tool_version, baseline_strategy, report, parameters, error,
        branch, ci_provider, ci_job, pull_request
        """

    init(row: [SQLValue]) {
        runID = row[0].string ?? ""
        scenario = row[1].string ?? ""
        status = row[2].string ?? ""
        startedAt = row[3].string ?? ""
        endedAt = row[4].string
        gitCommit = row[5].string
        host = row[6].string ?? ""
        os = row[7].string ?? ""
        arch = row[8].string ?? ""
        swiftVersion = row[9].string ?? ""
        buildConfiguration = row[10].string ?? ""
        toolVersion = row[11].string ?? ""
        baselineStrategy = row[12].string ?? ""
        report = row[13].string ?? ReportDeclaration.savings.name
        parameters = row[14].string ?? "{}"
        error = row[15].string
        branch = row[16].string
        ciProvider = row[17].string
        ciJob = row[18].string
        pullRequest = row[19].string
    }

    /// The status of a run that finished: the only kind whose figures are results.
    public static let complete = "complete"

    /// Nil for a complete run; otherwise a sentence saying why its figures are not a result.
    public var incompleteNote: String? {
        guard status != Self.complete else { return nil }
        return "\(scenario) run \(runID.prefix(8)) is \(status)\(error.map { " (\($0))" } ?? ""): its figures are partial, not a result"
    }

    /// What must match between a run and its baseline for a comparison to mean anything.
    public var environmentKey: [String: String] {
        ["swift_version": swiftVersion, "build_configuration": buildConfiguration, "os": os, "arch": arch]
    }
}

/// Finding runs: all of them, or one by id, id prefix or `latest`.
public enum RunQueries {
    public static func list(_ db: any SQLRowSource, limit: Int = 50) throws -> [RunInfo] {
        try db.rows("SELECT \(RunInfo.columns) FROM runs ORDER BY started_at DESC, run_id LIMIT ?", [.init(limit)])
            .map(RunInfo.init(row:))
    }

    /// The newest complete run of every scenario, in the order scenarios were first recorded.
    public static func latestPerScenario(_ db: any SQLRowSource) throws -> [RunInfo] {
        try db.rows("""
            SELECT \(RunInfo.columns) FROM runs r
            WHERE status = 'complete' AND started_at = (
                SELECT max(started_at) FROM runs x WHERE x.scenario = r.scenario AND x.status = 'complete')
            ORDER BY (SELECT min(started_at) FROM runs x WHERE x.scenario = r.scenario), run_id
            """).map(RunInfo.init(row:))
    }

    /// `latest` is the newest complete run (of `scenario`, when given); anything else
    /// is a run id or an unambiguous prefix of one.
    public static func resolve(_ reference: String, scenario: String? = nil, in db: any SQLRowSource) throws -> RunInfo {
        if reference == "latest" {
            let rows = try db.rows("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND (CAST(?1 AS TEXT) IS NULL OR scenario = ?1)
                ORDER BY started_at DESC, run_id DESC LIMIT 1
                """, [SQLValue(scenario)])
            guard let row = rows.first else { throw StoreError.noRuns(path: db.storeName) }
            return RunInfo(row: row)
        }
        let rows = try db.rows("SELECT \(RunInfo.columns) FROM runs WHERE run_id LIKE ? || '%' ESCAPE '\\' LIMIT 2",
                               [.text(escapeLike(reference.lowercased()))])
        guard rows.count == 1, let row = rows.first, !reference.isEmpty else {
            throw StoreError.runNotFound(path: db.storeName, run: reference)
        }
        return RunInfo(row: row)
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
