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

/// The savings view's arithmetic, on rollups with the seed article's own figures.
@Suite("Savings view")
struct SavingsViewTests {
    private func insertRun(_ db: SQLiteConnection, id: String, rows: [(String, String, Int)]) throws {
        try db.run("""
            INSERT INTO runs (run_id, scenario, status, started_at, host, os, arch, swift_version,
                              build_configuration, tool_version, baseline_strategy, process_id)
            VALUES (?, 'lazy-container', 'complete', '2026-01-01T00:00:00.000Z', 'h', 'o', 'a', '6.3', 'release', '0', 'eager', 1)
            """, [.text(id)])
        let runKey = try #require(try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(id)]))
        for (ordinal, (component, strategy, bytes)) in rows.enumerated() {
            let instances = 10
            try db.run("""
                INSERT INTO rollups (run_key, component, strategy, ordinal, instances, repeats, allocations,
                                     requested_bytes, usable_bytes, min_instance_requested, max_instance_requested,
                                     min_instance_usable, max_instance_usable, released_requested_bytes, released_usable_bytes)
                VALUES (?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?, ?, ?, 0, 0)
                """, [runKey, .text(component), .text(strategy), .init(ordinal), .init(instances),
                      .init(bytes * instances), .init(bytes * instances), .init(bytes), .init(bytes), .init(bytes), .init(bytes)])
        }
    }

    @Test("saved bytes and savings % are derived against eager, negative where a strategy costs more")
    func articleFigures() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        try insertRun(db, id: "run-a", rows: [
            ("UILabel", "eager", 896), ("UILabel", "lazy", 48), ("UILabel", "lazy-realized", 944),
            ("UIButton", "eager", 768), ("UIButton", "lazy", 48), ("UIButton", "lazy-realized", 816),
            ("UIImageView", "eager", 512), ("UIImageView", "lazy", 48), ("UIImageView", "lazy-realized", 560),
        ])
        let report = try SavingsReport.load(run: "run-a", measure: .requested, from: db)
        let byKey = Dictionary(uniqueKeysWithValues: report.rows.map { ("\($0.component)/\($0.strategy)", $0) })
        // The article printed 768, 1792 and 384 as "saved"; derived, they are 848, 720 and 464.
        #expect(byKey["UILabel/lazy"]?.savedBytes == 848)
        #expect(byKey["UILabel/lazy"]?.savingsPct == 94.64)
        #expect(byKey["UIButton/lazy"]?.savedBytes == 720)
        #expect(byKey["UIButton/lazy"]?.savingsPct == 93.75)
        #expect(byKey["UIImageView/lazy"]?.savedBytes == 464)
        #expect(byKey["UIImageView/lazy"]?.savingsPct == 90.63)
        #expect(byKey["UILabel/lazy-realized"]?.savedBytes == -48)
        #expect(byKey["UILabel/lazy-realized"]?.savingsPct == -5.36)
        #expect(byKey["UIButton/lazy-realized"]?.savingsPct == -6.25)
        #expect(byKey["UIImageView/lazy-realized"]?.savingsPct == -9.38)
        #expect(byKey["UILabel/eager"]?.savedBytes == 0)
        #expect(report.rows.map(\.component) == ["UILabel", "UILabel", "UILabel", "UIButton", "UIButton",
                                                 "UIButton", "UIImageView", "UIImageView", "UIImageView"])
    }

    @Test("a run without its baseline strategy has no savings rather than wrong ones")
    func missingBaseline() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        try insertRun(db, id: "run-b", rows: [("Label", "lazy", 48)])
        let row = try #require(try SavingsReport.load(run: "run-b", measure: .requested, from: db).rows.first)
        #expect(row.bytesPerInstance == 48)
        #expect(row.savedBytes == nil)
        #expect(row.savingsPct == nil)
    }
}
