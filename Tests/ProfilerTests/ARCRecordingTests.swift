import Foundation
import Testing
@testable import ProfilerChecks
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerStore

/// Retains and releases stored per event, rolled up and gated (issue 24, "ARC traffic").
/// Recording turns ARC counting on for the whole process (where the runtime allows), so
/// these tests record in their own process where counting must be off for the rest.
@Suite("ARC traffic, recorded")
struct ARCRecordingTests {
    private func record(_ db: TemporaryDatabase, instances: Int = 5, countARC: Bool = true) throws -> String {
        try ScenarioRunner.record(ARCCalibrationScenario(), database: db.path, options: RecordOptions(instances: instances),
                                  environment: .current(countARC: countARC)).runID
    }

    @Test("a counted run stores retains and releases per event, in its rollups and per instance")
    func countedRunStoresARC() throws {
        let temp = try TemporaryDatabase()
        let runID = try record(temp)
        try #require(ARCCounting.isEnabled, "ARC counting is unavailable on this runtime: \(ARCCounting.unavailableMethod)")
        let db = try ProfileStore.openForReading(path: temp.path)
        let run = try RunQueries.resolve(runID, in: db)
        #expect(run.arcCounting == ARCCounting.method)
        #expect(run.arcToolchain == "\(RunEnvironment.compilerVersion) \(RunEnvironment.machine())")
        #expect(try db.scalar("SELECT count(*) FROM event_log WHERE retains IS NULL OR releases IS NULL")?.int64 == 0)
        // The rollups hold what the create events made (this scenario realizes nothing).
        let mismatched = try db.scalar("""
            SELECT count(*) FROM rollups x
            WHERE x.retains IS NOT (SELECT sum(retains) FROM event_log e
                                    WHERE e.component = x.component AND e.strategy = x.strategy AND e.kind = 'create')
            """)
        #expect(mismatched?.int64 == 0)
        let perInstance = try db.rows("SELECT component, retains_per_instance, releases_per_instance FROM savings")
        #expect(perInstance.count == 3)
        for row in perInstance { #expect((row[1].double ?? 0) >= 1, "\(row)") }
    }

    @Test("a run that does not count stores NULL (not counted), never 0")
    func notCountedIsNull() throws {
        let temp = try TemporaryDatabase()
        _ = try record(temp, countARC: false)
        let db = try ProfileStore.openForReading(path: temp.path)
        #expect(try db.scalar("SELECT count(*) FROM runs WHERE arc_counting IS NULL")?.int64 == 1)
        #expect(try db.scalar("SELECT count(*) FROM event_log WHERE retains IS NOT NULL OR releases IS NOT NULL")?.int64 == 0)
        #expect(try db.scalar("SELECT count(*) FROM rollups WHERE retains IS NOT NULL OR releases IS NOT NULL")?.int64 == 0)
        #expect(try db.scalar("SELECT count(*) FROM step_rollups WHERE retains IS NOT NULL")?.int64 == 0)
        #expect(try db.scalar("SELECT count(*) FROM savings WHERE retains_per_instance IS NOT NULL")?.int64 == 0)
        #expect(try db.scalar("SELECT count(*) FROM savings")?.int64 == 3)
    }

    @Test("check gates retains per instance exactly: one more retain per instance is a regression")
    func oneMoreRetainFails() throws {
        let temp = try TemporaryDatabase()
        _ = try record(temp)
        let second = try record(temp)
        try #require(ARCCounting.isEnabled, "ARC counting is unavailable on this runtime")
        let db = try ProfileStore.openForWriting(path: temp.path)
        func arcVerdicts() throws -> [Verdict] {
            let run = try RunQueries.resolve(second, in: db)
            return try Checker.check(run, CheckRequest(baseline: "previous"), in: db).verdicts
                .filter { ["retains_per_instance", "releases_per_instance"].contains($0.key.name) }
        }
        let same = try arcVerdicts()
        #expect(same.count == 6, "retains and releases of the three pieces of work")
        #expect(same.allSatisfy { !$0.fails }, "\(same)")
        try db.run("""
            UPDATE rollups SET retains = retains + instances * repeats
            WHERE component = 'pass-reference' AND run_key = (SELECT run_key FROM runs WHERE run_id = ?)
            """, [.text(second)])
        let grown = try arcVerdicts().filter(\.fails)
        #expect(grown.map(\.key.component) == ["pass-reference"])
        #expect(grown.map(\.key.name) == ["retains_per_instance"])
        #expect(grown.first?.status == .regression)
    }

    @Test("check refuses runs counted two ways (environment mismatch), and compares with a run recorded before counting")
    func countedTwoWays() throws {
        let temp = try TemporaryDatabase()
        let first = try record(temp)
        let second = try record(temp)
        let db = try ProfileStore.openForWriting(path: temp.path)
        try db.run("UPDATE runs SET arc_counting = 'other-method' WHERE run_id = ?", [.text(first)])
        let run = try RunQueries.resolve(second, in: db)
        #expect(throws: CheckError.self) { _ = try Checker.check(run, CheckRequest(baseline: first), in: db) }
        do {
            _ = try Checker.check(run, CheckRequest(baseline: first), in: db)
        } catch CheckError.environmentMismatch(let differences) {
            #expect(differences.contains { $0.hasPrefix("arc_counting other-method in") })
        }
        // A baseline recorded before profctl counted ARC traffic: no method, nothing of it compared.
        try db.run("UPDATE runs SET arc_counting = NULL, arc_toolchain = NULL WHERE run_id = ?", [.text(first)])
        try db.run("UPDATE rollups SET retains = NULL, releases = NULL WHERE run_key = (SELECT run_key FROM runs WHERE run_id = ?)",
                   [.text(first)])
        let result = try Checker.check(run, CheckRequest(baseline: first), in: db)
        #expect(!result.verdicts.contains { $0.key.name == "retains_per_instance" && $0.fails })
    }

    // The calibration's figures, per instance, in a debug build (counted on Swift 6.3.1,
    // x86_64): 10 stores of one reference through a non-inlined function retain it 10 times
    // and release the old value 10 times, plus one copy of the reference each way for the
    // region's closure; a capture retains the reference once more than it releases; a
    // copy-on-write copy of 8 references plus one appended retains every element. A release
    // build counts fewer (the compiler drops its own copies); both repeat exactly.
    @Test("arc-calibration's figures repeat across 10 runs, and are the known debug counts")
    func calibrationRepeats() throws {
        let temp = try TemporaryDatabase()
        for _ in 0..<10 { _ = try record(temp, instances: 20) }
        try #require(ARCCounting.isEnabled, "ARC counting is unavailable on this runtime")
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("SELECT run_id, component, retains_per_instance, releases_per_instance FROM savings")
        #expect(rows.count == 30)
        var figures: [String: Set<[Double]>] = [:]
        for row in rows { figures[row[1].string ?? "", default: []].insert([row[2].double ?? -1, row[3].double ?? -1]) }
        #expect(figures.values.allSatisfy { $0.count == 1 }, "\(figures)")
        #if DEBUG
        #expect(figures == ["pass-reference": [[11, 11]], "closure-capture": [[2, 1]], "cow-copy": [[12, 3]]])
        #endif
    }
}
