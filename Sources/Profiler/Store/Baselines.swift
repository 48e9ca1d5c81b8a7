import Foundation
import ProfilerModel
import ProfilerSupport

/// Named baselines: per scenario, a label on one run (the baselines table).
package enum Baselines {
    package static func set(_ name: String, run: RunInfo, in db: any SQLWritableStore) throws {
        _ = try db.table("""
            INSERT INTO baselines (name, scenario, run_id, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (name, scenario) DO UPDATE SET run_id = excluded.run_id, created_at = excluded.created_at
            """, [.text(name), .text(run.scenario), .text(run.runID), .text(Timestamp.now())])
    }

    /// Removes a label from every scenario; returns how many runs it labelled.
    /// Call it inside `db.writing` so the count and the removal are one transaction.
    package static func remove(_ name: String, in db: any SQLWritableStore) throws -> Int {
        let labelled = try db.scalar("SELECT count(*) FROM baselines WHERE name = ?", [.text(name)])?.int64 ?? 0
        _ = try db.table("DELETE FROM baselines WHERE name = ?", [.text(name)])
        return Int(labelled)
    }

    package static func list(_ db: any SQLRowSource) throws -> ResultTable {
        try db.table("""
            SELECT b.name, b.scenario, b.run_id, r.started_at, r.git_commit, r.branch, b.created_at
            FROM baselines b JOIN runs r ON r.run_id = b.run_id ORDER BY b.name, b.scenario
            """, [])
    }

    /// The run a label names for a scenario.
    package static func run(named name: String, scenario: String, in db: any SQLRowSource) throws -> RunInfo? {
        let columns = RunInfo.columnNames.map { "r." + $0 }
        return try db.rows("""
            SELECT \(columns.joined(separator: ", "))
            FROM baselines b JOIN runs r ON r.run_id = b.run_id WHERE b.name = ? AND b.scenario = ?
            """, [.text(name), .text(scenario)]).first.map(RunInfo.init(row:))
    }

    /// Every label, each once, sorted: the valid choices when a name typed is not one.
    package static func names(in db: any SQLRowSource) throws -> [String] {
        try db.rows("SELECT DISTINCT name FROM baselines ORDER BY name").compactMap { $0.first?.string }
    }

    package static func exists(_ name: String, in db: any SQLRowSource) throws -> Bool {
        try db.scalar("SELECT count(*) FROM baselines WHERE name = ?", [.text(name)])?.int64 ?? 0 > 0
    }
}
