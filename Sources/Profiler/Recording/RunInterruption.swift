import Foundation
import ProfilerModel
import ProfilerStore
import ProfilerSupport

/// What Ctrl-C (SIGINT) during `record` leaves: the runs this process was recording,
/// marked aborted with the reason "interrupted", and what of them was kept.
package enum RunInterruption {
    /// The reason written in `runs.error`; it starts with "interrupted" so a user and a
    /// query can tell an interrupted run from one that failed.
    package static let reason = "interrupted (Ctrl-C, SIGINT) before the run was finished"

    package struct InterruptedRun: Sendable, Equatable {
        package let runID: String
        package let scenario: String
        /// Events committed before the interruption, kept in the database.
        package let eventsKept: Int64
    }

    /// Marks this process's `running` runs in `path` as aborted, interrupted, on a
    /// connection of its own (the recorder's may be mid-batch: its open transaction is
    /// lost, every committed batch stays), then hands them, with the events kept, to
    /// `end`, which must end the process. Until then this connection holds the write lock,
    /// so the recorder's writer thread commits nothing more and the count `end` prints is
    /// what the database keeps.
    package static func markInterrupted(database path: String, then end: ([InterruptedRun]) -> Never) throws -> Never {
        guard FileManager.default.fileExists(atPath: path) else { end([]) }
        let db = try SQLiteConnection(path: path, mode: .readWrite)
        let host = ProcessInfo.processInfo.hostName, pid = Int64(getpid())
        let runs = try db.transaction {
            let rows = try db.rows("SELECT run_key, run_id, scenario FROM runs WHERE status = 'running' AND process_id = ? AND host = ?",
                                   [.integer(pid), .text(host)])
            for row in rows {
                try db.run("UPDATE runs SET status = 'aborted', ended_at = ?, error = ? WHERE run_key = ?",
                           [.text(Timestamp.now()), .text(reason), row[0]])
            }
            return rows
        }
        // Held until the process ends; ending it rolls this empty transaction back. The
        // events are counted under it: the writer thread may commit a batch between the
        // commit above and this lock (the fault campaign once saw 3,584 events more in the
        // file than the message named), and none after it.
        try db.execute("BEGIN IMMEDIATE")
        let counted = try runs.map { row in
            let kept = try db.scalar("""
                SELECT count(*) FROM event_series x JOIN events e ON e.series_id = x.series_id WHERE x.run_key = ?
                """, [row[0]])
            return InterruptedRun(runID: row[1].string ?? "", scenario: row[2].string ?? "", eventsKept: kept?.int64 ?? 0)
        }
        end(counted)
    }
}
