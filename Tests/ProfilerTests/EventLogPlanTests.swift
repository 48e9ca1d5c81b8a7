import Foundation
import Testing
import Profiler
import SchemaDocExamples
import ProfilerScenarios
import ProfilerStore

/// migrations/0012: an analyst's plain aggregate over event_log reads the events series by
/// series and sorts none of them (6.5 s over 10M events before, when every event was
/// looked up and sorted). Plans, not times: the test suite checks behaviour only.
@Suite("event_log's query plans")
struct EventLogPlanTests {
    static func plan(_ query: String, _ db: SQLiteConnection) throws -> [String] {
        try db.rows("EXPLAIN QUERY PLAN " + query).compactMap { $0.last?.string }
    }

    @Test("a GROUP BY over event_log, plain or from docs/schema.md, sorts nothing and reads events last", arguments: [
        "SELECT kind, count(*), sum(requested_bytes) FROM event_log GROUP BY kind",
        "SELECT component, strategy, sum(requested_bytes) FROM event_log GROUP BY component, strategy",
        """
        SELECT r.scenario, e.component, e.strategy, SUM(e.requested_bytes) AS left_behind,
               SUM(CASE WHEN e.instance = 0 THEN e.requested_bytes ELSE 0 END) AS left_by_first_instance
        FROM event_log e JOIN runs r USING (run_id)
        GROUP BY e.run_id, r.scenario, e.component, e.strategy HAVING SUM(e.requested_bytes) <> 0
        """,
    ])
    func noSort(query: String) throws {
        let temp = try TemporaryDatabase()
        try ScenarioRunner.record(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 3))
        let db = try ProfileStore.openForReading(path: temp.path)
        let plan = try Self.plan(query, db)
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        // The events are the innermost loop: each series' events read in one stretch.
        #expect(plan.last { $0.hasPrefix("SEARCH") || $0.hasPrefix("SCAN") }?.hasPrefix("SEARCH e USING PRIMARY KEY") == true, "\(plan)")
    }

    @Test("every event_log example of docs/schema.md reads the events last, never scans them first")
    func documentedExamples() throws {
        let temp = try TemporaryDatabase()
        try ScenarioRunner.record(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 3))
        let db = try ProfileStore.openForReading(path: temp.path)
        let examples = try SchemaDocExamples.queries(includingFileOnly: true).filter { $0.contains("event_log") }
        #expect(!examples.isEmpty)
        for query in examples {
            let plan = try Self.plan(query, db)
            #expect(!plan.contains { $0.hasPrefix("SCAN e") }, "\(query): \(plan)")
        }
    }

    @Test("event_log holds the same rows as the tables it names")
    func sameRows() throws {
        let temp = try TemporaryDatabase()
        try ScenarioRunner.record(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 3))
        let db = try ProfileStore.openForReading(path: temp.path)
        let viaView = try db.rows("SELECT kind, count(*), sum(requested_bytes) FROM event_log GROUP BY kind ORDER BY kind")
        let direct = try db.rows("""
            SELECT k.name, count(*), sum(e.requested_bytes) FROM events e JOIN event_series x USING (series_id)
            JOIN event_kinds k ON k.kind_id = x.kind_id GROUP BY k.name ORDER BY k.name
            """)
        #expect(viaView == direct)
        #expect(try db.scalar("SELECT count(*) FROM event_log")?.int64 == db.scalar("SELECT count(*) FROM events")?.int64)
    }
}
