import Foundation
import Testing
import ProfilerStore

/// `check --leaks` reads `round_trip WHERE run_id = ?`: its cost must follow the run, not
/// the history. Version 6's views made SQLite scan every event of every run (19.3 s, then
/// 99.5 s on a loaded machine, for a 200-instance run in a 222 MB history; 0.11 s since
/// migration 11). The plan is what keeps it so, whatever the machine's speed.
@Suite("round_trip's plan follows the run")
struct RoundTripPlanTests {
    @Test("round_trip and round_trip_instances filtered on run_id start from the runs index and scan no table", arguments: ["round_trip", "round_trip_instances"])
    func planFollowsTheRun(view: String) throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        let plan = try db.rows("EXPLAIN QUERY PLAN SELECT * FROM \(view) WHERE run_id = ?", [.text("r")])
            .compactMap { $0.last?.string }
        #expect(plan.contains { $0.hasPrefix("SEARCH r USING") && $0.hasSuffix("(run_id=?)") }, "\(plan)")
        // Scans of the views' own co-routines are fine; a scan of a table is the history.
        let tableScans = plan.filter { $0.hasPrefix("SCAN ") && ["e", "x", "r", "s", "k"].contains($0.split(separator: " ")[1]) }
        #expect(tableScans.isEmpty, "\(plan)")
    }
}
