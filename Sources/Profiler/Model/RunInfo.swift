/// One row of the runs table.
package struct RunInfo: Sendable, Equatable, Codable {
    package let runID: String
    package let scenario: String
    package let status: String
    package let startedAt: String
    package let endedAt: String?
    package let gitCommit: String?
    package let branch: String?
    package let ciProvider: String?
    package let ciJob: String?
    package let pullRequest: String?
    package let host: String
    package let os: String
    package let arch: String
    package let swiftVersion: String
    package let buildConfiguration: String
    package let toolVersion: String
    package let baselineStrategy: String
    package let report: String
    package let parameters: String
    package let error: String?
    /// How the run's retains and releases were counted (`runtime-hooks`, `unavailable`);
    /// nil for a run recorded before profctl counted them.
    package let arcCounting: String?
    /// The Swift runtime they were counted on (`6.3.1 x86_64`).
    package let arcToolchain: String?

    enum CodingKeys: String, CodingKey {
        case runID = "run_id", scenario, status, startedAt = "started_at", endedAt = "ended_at"
        case gitCommit = "git_commit", branch, ciProvider = "ci_provider", ciJob = "ci_job", pullRequest = "pull_request"
        case host, os, arch, swiftVersion = "swift_version"
        case buildConfiguration = "build_configuration", toolVersion = "tool_version"
        case baselineStrategy = "baseline_strategy", report, parameters, error
        case arcCounting = "arc_counting", arcToolchain = "arc_toolchain"
    }

    package static let columns = """
        run_id, scenario, status, started_at, ended_at, git_commit, host, os, arch, swift_version,
        build_configuration, tool_version, baseline_strategy, report, parameters, error,
        branch, ci_provider, ci_job, pull_request, arc_counting, arc_toolchain
        """

    /// Reads one row of a result with the runs table's columns, by column name (a column
    /// the result lacks reads as NULL).
    package init(_ row: [SQLValue], columns: [String: Int]) {
        func value(_ name: CodingKeys) -> SQLValue { columns[name.rawValue].map { row[$0] } ?? .null }
        runID = value(.runID).string ?? ""
        scenario = value(.scenario).string ?? ""
        status = value(.status).string ?? ""
        startedAt = value(.startedAt).string ?? ""
        endedAt = value(.endedAt).string
        gitCommit = value(.gitCommit).string
        host = value(.host).string ?? ""
        os = value(.os).string ?? ""
        arch = value(.arch).string ?? ""
        swiftVersion = value(.swiftVersion).string ?? ""
        buildConfiguration = value(.buildConfiguration).string ?? ""
        toolVersion = value(.toolVersion).string ?? ""
        baselineStrategy = value(.baselineStrategy).string ?? ""
        report = value(.report).string ?? ReportDeclaration.savings.name
        parameters = value(.parameters).string ?? "{}"
        error = value(.error).string
        branch = value(.branch).string
        ciProvider = value(.ciProvider).string
        ciJob = value(.ciJob).string
        pullRequest = value(.pullRequest).string
        arcCounting = value(.arcCounting).string
        arcToolchain = value(.arcToolchain).string
    }

    /// The names in `columns`, in order. Split on commas and white space by the standard
    /// library: Foundation's `trimmingCharacters` goes through NSString, whose first use scans
    /// the process's protocol conformances three times (0.8M instructions of every command that reads a run).
    package static let columnNames: [String] = columns.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)

    /// The names in `columns`, by position: for rows selected with `SELECT \(RunInfo.columns)`.
    package static let positions: [String: Int] = Dictionary(columnNames.enumerated().map { ($0.element, $0.offset) },
                                                             uniquingKeysWith: { a, _ in a })

    /// A row selected with `SELECT \(RunInfo.columns)` (prefer `all(_:)`, which reads the
    /// names the result carries).
    package init(row: [SQLValue]) {
        self.init(row, columns: Self.positions.filter { $0.value < row.count })
    }

    /// Every run of a result table, read by column name.
    package static func all(_ table: ResultTable) -> [RunInfo] {
        let columns = Dictionary(table.columns.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return table.rows.map { RunInfo($0, columns: columns) }
    }

    /// The status of a run that finished: the only kind whose figures are results.
    package static let complete = "complete"

    /// Nil for a complete run; otherwise a sentence saying why its figures are not a result.
    package var incompleteNote: String? {
        guard status != Self.complete else { return nil }
        return "\(scenario) run \(runID.prefix(8)) is \(status)\(error.map { " (\($0))" } ?? ""): its figures are partial, not a result"
    }

    /// What must match between a run and its baseline for a comparison to mean anything.
    /// The ARC counting method and toolchain are in it when the run recorded them (a run
    /// recorded before profctl counted retains has no ARC figures to compare).
    package var environmentKey: [String: String] {
        var key = ["swift_version": swiftVersion, "build_configuration": buildConfiguration, "os": os, "arch": arch]
        if let arcCounting { key[Self.arcCountingKey] = arcCounting }
        if let arcToolchain { key[Self.arcToolchainKey] = arcToolchain }
        return key
    }

    /// The environment keys a run recorded before ARC counting lacks: absent on either side,
    /// they are not a difference (its retains are NULL, so nothing of theirs is compared).
    package static let arcCountingKey = "arc_counting", arcToolchainKey = "arc_toolchain"
}
