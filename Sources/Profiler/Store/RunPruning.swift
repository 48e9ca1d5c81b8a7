import Foundation
import ProfilerModel

/// Deletes the runs that are no result (aborted: killed, failed, interrupted by Ctrl-C)
/// with everything recorded for them, and gives their space back to the file.
package enum RunPruning {
    /// One run deleted, or that would be.
    package struct PrunedRun: Sendable, Equatable {
        package let runID: String
        package let scenario: String
        package let startedAt: String
        package let events: Int64
        /// Why it stopped (`runs.error`).
        package let reason: String?
    }

    /// The aborted runs of the database at `path`, deleted unless `dryRun`. Runs left
    /// `running` by a process that is gone are marked aborted first (as any open for
    /// writing does) and so are pruned too; a run still being recorded is never touched.
    /// After deleting, `VACUUM` returns the freed pages to the file system.
    package static func pruneAborted(database path: String, dryRun: Bool) throws -> [PrunedRun] {
        let db = try ProfileStore.openExistingForWriting(path: path)
        defer { db.close() }
        let runs = try db.rows("""
            SELECT r.run_id, r.scenario, r.started_at, r.error,
                   (SELECT count(*) FROM event_series x JOIN events e ON e.series_id = x.series_id WHERE x.run_key = r.run_key)
            FROM runs r WHERE r.status = 'aborted' ORDER BY r.started_at, r.run_key
            """).map { row in
            PrunedRun(runID: row[0].string ?? "", scenario: row[1].string ?? "", startedAt: row[2].string ?? "",
                      events: row[4].int64 ?? 0, reason: row[3].string)
        }
        guard !dryRun, !runs.isEmpty else { return runs }
        try db.transaction {
            // Every table that holds a run's data refers to runs ON DELETE CASCADE.
            try db.run("DELETE FROM runs WHERE status = 'aborted'")
        }
        try db.execute("VACUUM")
        return runs
    }
}
