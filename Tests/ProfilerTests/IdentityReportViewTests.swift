import Foundation
import Testing
import Profiler
import ProfilerScenarios
import ProfilerStore

/// identity's report view reads `metric_summary` once for all its rows (a join), not once
/// per row (a correlated subquery): the same rows, in the same order, as the view it replaced.
@Suite("identity report view")
struct IdentityReportViewTests {
    /// identity_report as declared before the join: `metric_summary` in a correlated
    /// subquery, evaluated again for every row the view returns.
    static let correlatedQuery = """
        SELECT run_id, strategy,
               SUM(CASE WHEN step = 'initial' AND kind = 'create' THEN events ELSE 0 END) / MAX(repeats) AS created_initially,
               SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'create' THEN events ELSE 0 END) / MAX(repeats) AS created_on_change,
               SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'release' THEN events ELSE 0 END) / MAX(repeats) AS released_on_change,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = s.run_key AND m.strategy = s.strategy AND m.name = 'state_resets') AS INTEGER) AS state_resets,
               ROUND(CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS REAL)
                     / NULLIF(SUM(CASE WHEN kind = 'create' THEN events ELSE 0 END), 0), 2) AS bytes_per_element
        FROM step_summary s WHERE report = 'identity'
        GROUP BY run_key, strategy
        ORDER BY run_key, MIN(first_seq)
        """

    @Test("identity_report has the same columns and rows, in the same order, as the correlated subquery it replaced")
    func sameRows() throws {
        let temp = try TemporaryDatabase()
        // Several runs: repeats that divide, a subset of strategies, toggles summed over
        // steps, and a run of another scenario the view must leave out.
        let runs: [(RecordOptions, any Scenario)] = [
            (RecordOptions(parameters: ["items": .int(5)]), IdentityScenario()),
            (RecordOptions(repeats: 3, parameters: ["items": .int(7), "toggles": .int(4)]), IdentityScenario()),
            (RecordOptions(strategies: ["branch", "fresh-id"], parameters: ["items": .int(3)]), IdentityScenario()),
            (RecordOptions(instances: 3), LazyContainerScenario()),
            (RecordOptions(repeats: 2, parameters: ["items": .int(4), "toggles": .int(3)]), IdentityScenario()),
        ]
        for (options, scenario) in runs { try recordOnOwnThread(scenario, database: temp.path, options: options) }

        let db = try ProfileStore.openForWriting(path: temp.path)
        // A strategy without its metric: the old view gave NULL there, and so must the new one.
        try db.run("""
            DELETE FROM metrics WHERE name = 'state_resets' AND strategy = 'branch'
              AND run_key = (SELECT MIN(run_key) FROM runs WHERE scenario = 'identity')
            """)
        try db.execute("CREATE TEMP VIEW identity_report_correlated AS\n\(Self.correlatedQuery)")

        let before = try db.rows("SELECT * FROM identity_report_correlated")
        let after = try db.rows("SELECT * FROM identity_report")
        #expect(before.count == 5 + 5 + 2 + 5)
        #expect(after == before)
        #expect(before.contains { $0[1] == .text("branch") && $0[5] == .null })
        let columns = { (view: String) in try db.rows("SELECT name FROM pragma_table_info('\(view)')").map { $0[0] } }
        #expect(try columns("identity_report") == columns("identity_report_correlated"))
        for (left, right) in [("identity_report", "identity_report_correlated"), ("identity_report_correlated", "identity_report")] {
            #expect(try db.scalar("SELECT COUNT(*) FROM (SELECT * FROM \(left) EXCEPT SELECT * FROM \(right))") == .integer(0),
                    "rows of \(left) missing from \(right)")
        }
    }

    @Test("identity_report's query names metric_summary once and has no correlated subquery")
    func metricSummaryOnce() throws {
        let query = IdentityScenario().report.query
        #expect(query.components(separatedBy: "metric_summary").count - 1 == 1)
        #expect(!query.contains("(SELECT value FROM metric_summary"))
    }
}
