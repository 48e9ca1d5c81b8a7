import Foundation
import Testing
import Profiler
@testable import ProfilerScenarios
@testable import ProfilerStore

/// image-cache's, lazy-list's and live-room's report views read `metric_summary` once for all
/// their rows (one CTE pivoting the metric names, joined), not once per row and metric (a
/// correlated subquery): the same columns and rows, in the same order, as the views they replaced.
@Suite("metric-pivot report views")
struct MetricPivotReportViewTests {
    /// cache_report as declared before the join: a correlated subquery per sweep metric.
    static let cacheCorrelated = """
        WITH lookups AS (
            SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
                   SUM(CASE WHEN kind = 'hit' THEN events ELSE 0 END) AS hits,
                   SUM(CASE WHEN kind = 'miss' THEN events ELSE 0 END) AS misses,
                   SUM(CASE WHEN kind = 'evict' THEN events ELSE 0 END) AS evictions
            FROM step_summary WHERE report = 'image-cache'
            GROUP BY run_key, strategy
        ),
        live AS (
            SELECT run_key, strategy,
                   MAX(CASE WHEN step = 'show' THEN live_bytes END) AS shown,
                   MAX(CASE WHEN step = 'release' THEN live_bytes END) AS after_release,
                   MAX(CASE WHEN step = 'idle' THEN live_bytes END) AS after_idle
            FROM sample_summary GROUP BY run_key, strategy
        )
        SELECT l.run_id, l.strategy,
               l.hits / l.repeats AS hits,
               l.misses / l.repeats AS misses,
               ROUND(CAST(l.hits AS REAL) / NULLIF(l.hits + l.misses, 0), 4) AS hit_ratio,
               CAST(v.shown AS INTEGER) AS live_bytes_while_shown,
               CAST(v.after_release AS INTEGER) AS retained_bytes_after_release,
               CAST(v.after_idle AS INTEGER) AS retained_bytes_after_idle,
               CAST(b.shown - v.shown AS INTEGER) AS saved_bytes,
               ROUND(100.0 * (b.shown - v.shown) / NULLIF(b.shown, 0), 2) AS savings_pct,
               l.evictions / l.repeats AS evictions,
               (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps') AS sweeps,
               (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps_skipped') AS sweeps_skipped,
               ROUND((SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweep_ns') / 1e6, 3) AS sweep_ms
        FROM lookups l
        JOIN live v ON v.run_key = l.run_key AND v.strategy = l.strategy
        LEFT JOIN live b ON b.run_key = l.run_key AND b.strategy = 'no-cache'
        ORDER BY l.run_key, l.ordinal
        """

    /// list_report as declared before the join.
    static let listCorrelated = """
        WITH counts AS (
            SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
                   SUM(CASE WHEN component = 'row' AND kind = 'create' THEN events ELSE 0 END) AS created,
                   SUM(CASE WHEN component = 'row' AND kind = 'create' AND step = 'top' THEN events ELSE 0 END) AS created_at_top,
                   SUM(CASE WHEN component = 'row-body' AND kind = 'realize' THEN events ELSE 0 END) AS realized,
                   SUM(CASE WHEN component = 'row-body' AND kind = 'realize' AND step = 'top' THEN events ELSE 0 END) AS realized_at_top
            FROM step_summary WHERE report = 'lazy-list'
            GROUP BY run_key, strategy
        ),
        live AS (
            SELECT run_key, strategy, MAX(peak_bytes) AS peak,
                   MAX(CASE WHEN step = 'scroll-up' THEN live_bytes END) AS back_at_top
            FROM sample_summary GROUP BY run_key, strategy
        )
        SELECT c.run_id, c.strategy,
               c.created / c.repeats AS rows_created,
               c.created_at_top / c.repeats AS rows_created_at_top,
               c.realized / c.repeats AS realizations,
               c.realized_at_top / c.repeats AS rows_realized_at_top,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'max_visible') AS INTEGER) AS max_visible,
               v.peak AS peak_live_bytes,
               CAST(v.back_at_top AS INTEGER) AS live_bytes_back_at_top,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'nested_state_resets') AS INTEGER) AS nested_state_resets,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'pages_loaded') AS INTEGER) AS pages_loaded
        FROM counts c
        JOIN live v ON v.run_key = c.run_key AND v.strategy = c.strategy
        ORDER BY c.run_key, c.ordinal
        """

    /// live_room_report as declared before the join: panels and opened each read twice.
    static let liveRoomCorrelated = """
        WITH totals AS (
            SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
                   SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) / MAX(repeats) AS page_bytes,
                   SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) / MAX(repeats) AS created_bytes
            FROM step_summary WHERE report = 'live-room'
            GROUP BY run_key, strategy
        )
        SELECT t.run_id, t.strategy,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels') AS INTEGER) AS panels,
               CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened') AS INTEGER) AS opened,
               t.page_bytes,
               e.page_bytes - t.page_bytes AS saved_bytes,
               ROUND(100.0 * (e.page_bytes - t.page_bytes) / NULLIF(e.page_bytes, 0), 2) AS savings_pct,
               CASE WHEN t.strategy = 'lazy' AND t.created_bytes < e.page_bytes
                    THEN ROUND(100.0 * (1 - CAST(t.created_bytes AS REAL) / e.page_bytes), 2) END AS break_even_pct,
               CASE WHEN t.strategy = 'lazy' THEN ROUND(100.0 *
                   (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')
                   / (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels'), 2) END AS realized_pct
        FROM totals t
        LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
        ORDER BY t.run_key, t.ordinal
        """

    /// Each rewritten view, its old SQL, and how many rows the database below gives it.
    static let views: [(view: String, correlated: String, rows: Int)] = [
        ("cache_report", cacheCorrelated, 4 + 4 + 2),
        ("list_report", listCorrelated, 5 + 5 + 2),
        ("live_room_report", liveRoomCorrelated, 2 + 2 + 1),
    ]

    @Test("cache_report, list_report and live_room_report have the same columns and rows, in the same order, as their correlated subqueries")
    func sameRows() throws {
        let temp = try TemporaryDatabase()
        // Several runs of each with different parameters and repeats, a subset of strategies
        // (one without the baseline), and a run of another scenario the views must leave out.
        let small: [String: ParameterValue] = ["photo_side": .int(16), "icon_side": .int(4)]
        let runs: [(RecordOptions, any Scenario)] = [
            (RecordOptions(parameters: small.merging(["placements": .int(3)]) { $1 }), ImageCacheScenario()),
            (RecordOptions(parameters: ["rows": .int(20), "viewport": .int(4), "page_size": .int(5)]), LazyListScenario()),
            (RecordOptions(parameters: ["panels": .int(30)]), LiveRoomScenario()),
            (RecordOptions(repeats: 2, parameters: small.merging(["placements": .int(5)]) { $1 }), ImageCacheScenario()),
            (RecordOptions(repeats: 2, parameters: ["rows": .int(12), "viewport": .int(3), "page_size": .int(4), "load_threshold": .int(2)]),
             LazyListScenario()),
            (RecordOptions(repeats: 2, parameters: ["panels": .int(36), "opened_percent": .int(50)]), LiveRoomScenario()),
            (RecordOptions(instances: 3), LazyContainerScenario()),
            (RecordOptions(strategies: ["sweep-cache", "weak-cache"], parameters: small), ImageCacheScenario()),
            (RecordOptions(strategies: ["lazy", "eager"], parameters: ["rows": .int(8), "viewport": .int(3)]), LazyListScenario()),
            (RecordOptions(strategies: ["lazy"], parameters: ["panels": .int(40), "opened_percent": .int(0)]), LiveRoomScenario()),
        ]
        for (options, scenario) in runs { try recordOnOwnThread(scenario, database: temp.path, options: options) }

        let db = try ProfileStore.openForWriting(path: temp.path)
        // A metric missing from one strategy of each: the old views gave NULL there, and so must
        // the new ones (and the other metrics of that strategy stay). And a strategy with none of
        // its metrics left: its row stays, all NULL there (image-cache's no-sweep caches have none).
        let deleted = [("image-cache", "sweep-cache", "sweeps"), ("lazy-list", "lazy", "pages_loaded"), ("live-room", "lazy", "opened"),
                       ("lazy-list", "eager", "max_visible"), ("lazy-list", "eager", "nested_state_resets"),
                       ("lazy-list", "eager", "pages_loaded"), ("live-room", "eager", "panels"), ("live-room", "eager", "opened")]
        for (scenario, strategy, metric) in deleted {
            try db.run("""
                DELETE FROM metrics WHERE name = '\(metric)' AND strategy = '\(strategy)'
                  AND run_key = (SELECT MIN(run_key) FROM runs WHERE scenario = '\(scenario)')
                """)
        }
        for (view, correlated, _) in Self.views {
            try db.execute("CREATE TEMP VIEW \(view)_correlated AS\n\(correlated)")
        }

        for (view, _, count) in Self.views {
            let before = try db.rows("SELECT * FROM \(view)_correlated")
            let after = try db.rows("SELECT * FROM \(view)")
            #expect(before.count == count, "\(view)")
            #expect(after == before, "\(view)")
            let columns = { (name: String) in try db.rows("SELECT name FROM pragma_table_info('\(name)')").map { $0[0] } }
            #expect(try columns(view) == columns("\(view)_correlated"), "\(view)")
            for (left, right) in [(view, "\(view)_correlated"), ("\(view)_correlated", view)] {
                #expect(try db.scalar("SELECT COUNT(*) FROM (SELECT * FROM \(left) EXCEPT SELECT * FROM \(right))") == .integer(0),
                        "rows of \(left) missing from \(right)")
            }
        }
        // The deleted metrics' NULLs, next to the metrics kept on the same row.
        let cache = try db.rows("SELECT sweeps, sweeps_skipped FROM cache_report WHERE strategy = 'sweep-cache'")
        #expect(cache.contains { $0[0] == .null && $0[1] != .null })
        #expect(try db.rows("SELECT 1 FROM list_report WHERE strategy = 'lazy' AND pages_loaded IS NULL AND max_visible IS NOT NULL").count == 1)
        #expect(try db.rows("SELECT 1 FROM live_room_report WHERE opened IS NULL AND realized_pct IS NULL AND panels IS NOT NULL").count == 1)
        #expect(try db.rows("SELECT 1 FROM list_report WHERE strategy = 'eager' AND max_visible IS NULL AND pages_loaded IS NULL").count == 1)
        #expect(try db.rows("SELECT 1 FROM live_room_report WHERE strategy = 'eager' AND panels IS NULL AND opened IS NULL").count == 1)
    }

    @Test("each rewritten view names metric_summary once and has no correlated subquery",
          arguments: ["image-cache", "lazy-list", "live-room"])
    func metricSummaryOnce(scenario: String) throws {
        let declared: [any Scenario] = [ImageCacheScenario(), LazyListScenario(), LiveRoomScenario()]
        let query = try #require(declared.first { $0.name == scenario }).report.query
        #expect(query.components(separatedBy: "metric_summary").count - 1 == 1)
        #expect(!query.contains("(SELECT value FROM metric_summary"))
    }
}
