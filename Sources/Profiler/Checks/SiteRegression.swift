import ProfilerSites
import ProfilerStore

/// The sites behind a check's byte regressions: for each component and strategy whose
/// bytes regressed, how its sites changed from the baseline to the run, when both were
/// recorded with --sites.
package struct SiteRegression: Sendable {
    package let scenario: String
    package let component: String
    package let strategy: String
    package let runID: String
    package let baselineRunID: String
    package let differences: [SiteDifference]

    /// One entry per (component, strategy) with a failing bytes metric in `result`. The
    /// baseline compared is the newest of the result's baselines recorded with --sites.
    package static func explain(_ result: CheckResult, in db: any SQLRowSource) throws -> [SiteRegression] {
        let byteRegressions = result.verdicts.filter { $0.fails && $0.status != .missing && $0.key.name.contains("bytes") }
        guard !byteRegressions.isEmpty, try SiteQuery.hasSites(result.run.runID, in: db) else { return [] }
        guard let baseline = try result.baselines.sorted(by: { $0.startedAt > $1.startedAt })
            .first(where: { try SiteQuery.hasSites($0.runID, in: db) }) else { return [] }
        var seen: Set<[String]> = []
        var explained: [SiteRegression] = []
        for verdict in byteRegressions where seen.insert([verdict.key.component, verdict.key.strategy]).inserted {
            let filter = CaptureFilter(component: verdict.key.component, strategy: verdict.key.strategy)
            let differences = SiteDiff.compare(try SiteQuery.rows(runID: baseline.runID, filter: filter, in: db),
                                               try SiteQuery.rows(runID: result.run.runID, filter: filter, in: db))
            explained.append(SiteRegression(scenario: result.run.scenario, component: verdict.key.component,
                                            strategy: verdict.key.strategy, runID: result.run.runID,
                                            baselineRunID: baseline.runID, differences: differences))
        }
        return explained
    }

    /// A few lines for stderr: the largest changes first.
    package func message(limit: Int = 10) -> String {
        var text = "sites behind the byte regression of \(scenario) \(component)/\(strategy) "
            + "(baseline run \(baselineRunID.prefix(8)) -> run \(runID.prefix(8))):"
        if differences.isEmpty { return text + " no site changed (the difference is in blocks no stack was captured for)" }
        for d in differences.prefix(limit) {
            let sign = d.deltaBytes > 0 ? "+" : ""
            text += "\n  \(d.change.rawValue) \(sign)\(d.deltaBytes) B  [\(d.kind)] \(d.site)"
                + "  (\(d.before.liveRequestedBytes) -> \(d.after.liveRequestedBytes) B, \(d.before.allocations) -> \(d.after.allocations) allocations)"
        }
        if differences.count > limit { text += "\n  ... and \(differences.count - limit) more (the sites of \(component) differing between runs \(baselineRunID.prefix(8)) and \(runID.prefix(8)))" }
        return text
    }
}
