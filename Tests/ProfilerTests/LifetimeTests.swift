import Foundation
import Testing
import ProfctlTestSupport
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport
import CAllocationHooks
#if canImport(Glibc)
import Glibc
#endif

/// Temporaries and size classes (migrations/0008_lifetimes.sql, docs/leaks.md): what the
/// hooks count in each measured region, summed per series by the recorder.
@Suite("Lifetimes and size classes")
struct LifetimeTests {
    /// Blocks a test allocates in a region and frees afterwards, outside any region.
    final class Blocks: @unchecked Sendable {
        var kept: [UnsafeMutableRawPointer] = []
        var usable: [Int: Int] = [:]  // requested size -> malloc_usable_size
        deinit { kept.forEach { free($0) } }
    }

    /// Records `instances` create events of component "maker", each allocating a kept
    /// malloc(24) and a malloc(100), and a malloc(777) freed inside the region. One
    /// instance goes to a discarding sink first: the first call of the closure allocates
    /// once per process (type metadata), which is not what the test is about.
    static func recordKnownSizes(instances: Int, into path: String, blocks: Blocks) throws {
        let released = RecorderReleased()
        defer { released.wait() }
        try onOwnThread {
            let recorder = try Recorder.start(database: path, run: RunDescription(
                scenario: "known-sizes", baselineStrategy: "plain", parameters: [:]))
            released.recorder = recorder
            let warmUp = Probe(sink: DiscardingSink(), component: "maker", strategy: "plain")
            let recorded = Probe(sink: recorder, component: "maker", strategy: "plain")
            for i in -1..<instances {
                let probe = i < 0 ? warmUp : recorded
                let (small, medium) = try probe.instance(i).measure(.create) { () -> (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) in
                    let temporary = keep(malloc(777))
                    blocks.usable[777] = temporary.map { profctl_malloc_usable_size($0) }
                    free(temporary)
                    return (keep(malloc(24)), keep(malloc(100)))
                }
                guard let small, let medium else { throw ScenarioError.invalidOption("malloc failed") }
                blocks.kept += [small, medium]
                blocks.usable[24] = profctl_malloc_usable_size(small)
                blocks.usable[100] = profctl_malloc_usable_size(medium)
            }
            try recorder.finish()
        }
    }

    /// Waits until the recorder is gone (its writer thread lets go of it a moment after
    /// finish), so that its connection is closed before the test reads the file.
    final class RecorderReleased: @unchecked Sendable {
        weak var recorder: Recorder?
        func wait() {
            for _ in 0..<5_000 where recorder != nil { usleep(1_000) }
        }
    }

    @Test("a temporary of known size freed inside its create region is counted exactly, and only it")
    func temporaryCounted() throws {
        let temp = try TemporaryDatabase()
        let blocks = Blocks()
        try Self.recordKnownSizes(instances: 3, into: temp.path, blocks: blocks)
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("""
            SELECT kind, regions, allocations, temporaries, temporary_requested_bytes, allocated_bytes, requested_bytes
            FROM temporaries WHERE component = 'maker' AND strategy = 'plain'
            """)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row[0].string == "create")
        #expect(row[1].int64 == 3)
        #expect(row[2].int64 == 9)
        #expect(row[3].int64 == 3)
        #expect(row[4].int64 == Int64(3 * 777))
        // Everything the regions allocated, freed or not: not the events' net requested_bytes.
        #expect(row[5].int64 == Int64(3 * (777 + 24 + 100)))
        // The name before schema version 22, kept as a deprecated alias of the same figure.
        #expect(row[6].int64 == row[5].int64)
    }

    @Test("the size-class histogram holds each size in its log2 class with malloc's usable size")
    func histogram() throws {
        let temp = try TemporaryDatabase()
        let blocks = Blocks()
        try Self.recordKnownSizes(instances: 4, into: temp.path, blocks: blocks)
        let usable24 = try #require(blocks.usable[24]), usable100 = try #require(blocks.usable[100])
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("""
            SELECT size_class, min_requested, max_requested, allocations, requested_bytes, usable_bytes, wasted_bytes
            FROM size_classes WHERE component = 'maker' AND strategy = 'plain' ORDER BY size_class
            """).map { $0.map { $0.int64 ?? -1 } }
        // 24 in [16, 32), 100 in [64, 128), 777 in [512, 1024).
        let usable777 = try #require(blocks.usable[777])
        func expected(_ sizeClass: Int, _ requested: Int, _ usable: Int) -> [Int64] {
            [sizeClass, 1 << sizeClass, (2 << sizeClass) - 1, 4, 4 * requested, 4 * usable, 4 * (usable - requested)].map { Int64($0) }
        }
        let wanted: [[Int64]] = [expected(4, 24, usable24), expected(6, 100, usable100), expected(9, 777, usable777)]
        #expect(rows == wanted)
    }

    @Test("every built-in scenario: each event's region is in its series' histogram, with every allocation it counted")
    func builtInScenarios() throws {
        for scenario in BuiltInScenarios.all {
            let options = RecordOptions(instances: scenario.name == "live-room" ? 30 : 8)
            let temp = try TemporaryDatabase()
            let path = temp.path
            _ = try onOwnThread { try ScenarioRunner.record(scenario, database: path, options: options) }
            let db = try ProfileStore.openForReading(path: temp.path)
            // Every event's region is in its series' figures, with every allocation it counted.
            let mismatched = try db.rows("""
                SELECT e.component, e.strategy, e.kind, COUNT(*), SUM(e.allocations), l.regions, l.allocations,
                       l.temporary_requested_bytes, l.allocated_bytes
                FROM event_log e LEFT JOIN temporaries l
                  ON l.run_id = e.run_id AND l.component = e.component AND l.strategy = e.strategy AND l.kind = e.kind
                GROUP BY e.component, e.strategy, e.kind
                HAVING COUNT(*) IS NOT l.regions OR SUM(e.allocations) IS NOT l.allocations
                    OR l.temporary_requested_bytes > l.allocated_bytes
                """)
            #expect(mismatched.isEmpty, "\(scenario.name): \(mismatched)")
            let histogram = try db.scalar("SELECT SUM(allocations) FROM size_classes")?.int64
            let events = try db.scalar("SELECT SUM(allocations) FROM event_log")?.int64
            #expect(histogram == events, "\(scenario.name)")
        }
    }

    @Test("the HTML report draws a recorded run's size classes, labelled by the sizes each class holds")
    func chart() throws {
        #expect(SizeClassChart.label(0) == "0-1")
        #expect(SizeClassChart.label(4) == "16-31")
        #expect(SizeClassChart.label(6) == "64-127")
        #expect(SizeClassChart.label(10) == "1K-2K")
        #expect(SizeClassChart.label(19) == "512K-1M")
        let temp = try TemporaryDatabase()
        let blocks = Blocks()
        try Self.recordKnownSizes(instances: 2, into: temp.path, blocks: blocks)
        let db = try ProfileStore.openForReading(path: temp.path)
        let run = try #require(RunQueries.list(db).first)
        let points = try SizeClassQuery.load(run, from: db)
        #expect(points.map(\.sizeClass) == [4, 6, 9])
        #expect(points.allSatisfy { $0.strategy == "plain" && $0.allocations == 2 })
        let html = SizeClassChart.render(points, strategyOrder: [])
        #expect(html.components(separatedBy: "<svg").count - 1 == 2)
        #expect(html.contains(">16-31<") && html.contains(">64-127<") && html.contains(">512-1023<"))
        #expect(SizeClassChart.render([], strategyOrder: ["plain"]).isEmpty)
    }
}
