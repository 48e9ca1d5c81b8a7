import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// What each built-in scenario must show, read through its report view.
@Suite("Scenario reports")
struct ScenarioReportTests {
    func record(_ scenario: any Scenario, _ parameters: [String: ParameterValue] = [:], repeats: Int = 1) throws
        -> (TemporaryDatabase, [String: [String: SQLValue]]) {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(scenario, database: temp.path, options: RecordOptions(repeats: repeats, parameters: parameters))
        let db = try ProfileStore.openForReading(path: temp.path)
        let report = try RunReport.load(try RunQueries.resolve("latest", in: db), measure: .requested, catalog: BuiltInScenarios.reportCatalog(in: db), from: db)
        var byStrategy: [String: [String: SQLValue]] = [:]
        for row in report.table.rows {
            let fields = Dictionary(uniqueKeysWithValues: zip(report.table.columns, row))
            if let strategy = fields["strategy"]?.string { byStrategy[strategy] = fields }
        }
        return (temp, byStrategy)
    }

    func int(_ row: [String: SQLValue]?, _ column: String) -> Int64 { row?[column]?.int64 ?? -999 }
    func double(_ row: [String: SQLValue]?, _ column: String) -> Double { row?[column]?.double ?? -999 }

    @Test("image-cache: K times the bytes without a cache; K-1 hits per image; strong keeps, weak and no-cache do not")
    func imageCache() throws {
        let k = 7
        let (_, rows) = try record(ImageCacheScenario(), ["placements": .int(k)])
        let none = rows["no-cache"], strong = rows["strong-cache"], weak = rows["weak-cache"], sweep = rows["sweep-cache"]
        let ratio = double(none, "live_bytes_while_shown") / double(strong, "live_bytes_while_shown")
        #expect(abs(ratio - Double(k)) < 0.1)
        for row in [strong, weak, sweep] {
            #expect(int(row, "hits") == Int64(2 * (k - 1)))
            #expect(int(row, "misses") == 2)
        }
        #expect(int(none, "misses") == Int64(2 * k))
        let photo = Int64(512 * 512 * 4)
        #expect(int(strong, "retained_bytes_after_release") >= photo)
        #expect(int(strong, "retained_bytes_after_idle") >= photo)
        #expect(int(weak, "retained_bytes_after_release") == 0)
        #expect(int(none, "retained_bytes_after_release") == 0)
        #expect(int(sweep, "retained_bytes_after_release") >= photo)
        #expect(int(sweep, "retained_bytes_after_idle") == 0)
        #expect(int(sweep, "evictions") == 2)
        #expect(double(sweep, "sweeps") + double(sweep, "sweeps_skipped") == 2)
        #expect(int(strong, "saved_bytes") > 0)
    }

    @Test("lazy-list: eager builds N rows, lazy only the viewport at the top; explicit ids and conditional roots create N")
    func lazyList() throws {
        let n = 100, viewport = 10
        let (_, rows) = try record(LazyListScenario(), ["rows": .int(n), "viewport": .int(viewport)])
        let eager = rows["eager"], lazy = rows["lazy"], explicit = rows["lazy-explicit-id"]
        let conditional = rows["lazy-conditional-root"], wrapped = rows["lazy-wrapped-conditional"]
        #expect(int(eager, "rows_created") == Int64(n) && int(eager, "realizations") == Int64(n))
        #expect(int(lazy, "rows_created_at_top") == Int64(viewport))
        #expect(int(lazy, "rows_realized_at_top") == Int64(viewport))
        #expect(int(explicit, "rows_created") == Int64(n))
        #expect(int(explicit, "rows_realized_at_top") == int(lazy, "rows_realized_at_top"))
        #expect(int(conditional, "rows_created") == Int64(n))
        #expect(int(wrapped, "rows_created_at_top") == int(lazy, "rows_created_at_top"))
        #expect(int(lazy, "max_visible") == Int64(viewport))
        #expect(int(lazy, "peak_live_bytes") < int(eager, "peak_live_bytes"))
        #expect(int(lazy, "nested_state_resets") > 0 && int(eager, "nested_state_resets") == 0)
        #expect(int(lazy, "pages_loaded") == 4)
    }

    @Test("composite-cell: direct-draw costs the most bytes per cell; every phase has a latency")
    func compositeCell() throws {
        let (_, rows) = try record(CompositeCellScenario(), ["cells": .int(10), "reuses": .int(10)])
        let drawn = double(rows["direct-draw"], "bytes_per_cell")
        #expect(drawn > double(rows["template"], "bytes_per_cell"))
        #expect(drawn > double(rows["hand-built"], "bytes_per_cell"))
        #expect(drawn >= Double(375 * 88 * 4 * 4))
        for strategy in ["template", "hand-built", "direct-draw"] {
            for column in ["first_ns", "later_median_ns", "later_p90_ns", "reuse_median_ns", "reuse_p90_ns"] {
                #expect(int(rows[strategy], column) > 0, "\(strategy) \(column)")
            }
            #expect(int(rows[strategy], "later_p90_ns") >= int(rows[strategy], "later_median_ns"))
        }
    }

    @Test("identity: a stable id creates exactly one element on a head insertion; a fresh id recreates all")
    func identity() throws {
        let n = 20
        let (_, rows) = try record(IdentityScenario(), ["items": .int(n)])
        #expect(int(rows["stable-id"], "created_on_change") == 1)
        #expect(int(rows["stable-id"], "released_on_change") == 0)
        #expect(int(rows["stable-id"], "state_resets") == 0)
        #expect(int(rows["fresh-id"], "created_on_change") == Int64(n + 1))
        #expect(int(rows["fresh-id"], "released_on_change") == Int64(n))
        #expect(int(rows["index-id"], "state_resets") == Int64(n))
        #expect(int(rows["branch"], "created_on_change") == 1 && int(rows["branch"], "released_on_change") == 1)
        #expect(int(rows["single-element-modifier"], "created_on_change") == 0)
        #expect(int(rows["single-element-modifier"], "state_resets") == 0)
    }

    @Test("live-room: lazy costs less while fewer panels than the break-even rate are opened")
    func liveRoom() throws {
        let (_, rows) = try record(LiveRoomScenario(), repeats: 2)
        let eager = rows["eager"], lazy = rows["lazy"]
        #expect(int(lazy, "page_bytes") < int(eager, "page_bytes"))
        #expect(int(lazy, "opened") == 6 && int(lazy, "panels") == 30)
        #expect(double(lazy, "realized_pct") == 20)
        #expect(double(lazy, "break_even_pct") > double(lazy, "realized_pct"))
    }

    @Test("every step leaves a live-bytes sample per component and strategy; lazy-container ends with nothing alive")
    func timeline() throws {
        let (temp, _) = try record(LazyContainerScenario(), ["instances": .int(5)])
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("SELECT strategy, step, live_requested_bytes FROM timeline ORDER BY strategy, step_index")
        #expect(rows.count == 3 * 3 * 2)
        for row in rows where row[1] == .text("release") { #expect(row[2] == .integer(0)) }
        // A step name used once per component keeps a sample each time: each component's 5
        // containers (the component before was released in its own release step).
        let lazyBuilt = try db.rows("SELECT component, live_requested_bytes FROM timeline WHERE strategy = 'lazy' AND step = 'build' ORDER BY elapsed_ns")
        let expected: [[SQLValue]] = ["Label", "Button", "ImageView"].map { [.text($0), .integer(5 * 48)] }
        #expect(lazyBuilt == expected)
        let stepsOfEvents = try db.rows("SELECT DISTINCT step FROM event_log ORDER BY step").map { $0[0] }
        #expect(stepsOfEvents == [.text("build"), .text("release")])
    }
}
