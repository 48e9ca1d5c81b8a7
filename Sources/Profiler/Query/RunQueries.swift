import ProfilerModel
import ProfilerStore

/// Finding runs: all of them, or one by id, id prefix or `latest`.
package enum RunQueries {
    package static func list(_ db: any SQLRowSource, limit: Int = 50) throws -> [RunInfo] {
        RunInfo.all(try db.table("SELECT \(RunInfo.columns) FROM runs ORDER BY started_at DESC, run_id LIMIT ?", [.init(limit)]))
    }

    /// The newest complete run of every scenario, in the order scenarios were first recorded.
    package static func latestPerScenario(_ db: any SQLRowSource) throws -> [RunInfo] {
        RunInfo.all(try db.table("""
            SELECT \(RunInfo.columns) FROM runs r
            WHERE status = 'complete' AND started_at = (
                SELECT max(started_at) FROM runs x WHERE x.scenario = r.scenario AND x.status = 'complete')
            ORDER BY (SELECT min(started_at) FROM runs x WHERE x.scenario = r.scenario), run_id
            """, []))
    }

    /// Runs that are the newest of their scenario but not complete (aborted, or still
    /// running), for `scenario` alone when given: the default selection passes over them.
    package static func newestIncomplete(scenario: String? = nil, in db: any SQLRowSource) throws -> [RunInfo] {
        RunInfo.all(try db.table("""
            SELECT \(RunInfo.columns) FROM runs r
            WHERE status <> 'complete' AND (CAST(?1 AS TEXT) IS NULL OR scenario = ?1) AND started_at = (
                SELECT max(started_at) FROM runs x WHERE x.scenario = r.scenario)
            ORDER BY scenario, run_id
            """, [SQLValue(scenario)]))
    }

    /// `latest` is the newest complete run (of `scenario`, when given); anything else
    /// is a run id or an unambiguous prefix of one.
    package static func resolve(_ reference: String, scenario: String? = nil, in db: any SQLRowSource) throws -> RunInfo {
        if reference == "latest" {
            let runs = RunInfo.all(try db.table("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND (CAST(?1 AS TEXT) IS NULL OR scenario = ?1)
                ORDER BY started_at DESC, run_id DESC LIMIT 1
                """, [SQLValue(scenario)]))
            guard let run = runs.first else { throw StoreError.noRuns(path: db.storeName) }
            return run
        }
        let runs = RunInfo.all(try db.table("SELECT \(RunInfo.columns) FROM runs WHERE run_id LIKE ? || '%' ESCAPE '\\' LIMIT 2",
                                            [.text(escapeLike(reference.lowercased()))]))
        guard runs.count == 1, let run = runs.first, !reference.isEmpty else {
            throw StoreError.runNotFound(path: db.storeName, run: reference)
        }
        return run
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
