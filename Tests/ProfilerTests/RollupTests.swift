import Foundation
import Testing
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

/// The recorder writes rollups from the figures it kept per series; they must equal, row
/// for row, what GROUP BY queries over all the run's events give (RollupReference).
@Suite("Rollups from series figures")
struct RollupTests {
    private func expectSameAsReference(_ path: String, run: Int64) throws {
        let db = try ProfileStore.openForReading(path: path)
        let pairs = [("rollups", RollupReference.rollupSQL), ("step_rollups", RollupReference.stepRollupSQL),
                     ("latency_rollups", RollupReference.latencyRollupSQL)]
        for (table, query) in pairs {
            let written = try RollupReference.rows(of: table, run: run, in: db)
            let expected = try RollupReference.expected(query, run: run, in: db)
            #expect(written == expected, "\(table) differs from its GROUP BY reference")
            // image-cache creates nothing (hits and misses): only its step rollups have rows.
            if table == "step_rollups" { #expect(!written.isEmpty, "\(table) has rows") }
        }
    }

    private func runKey(_ summary: RunSummary, _ path: String) throws -> Int64 {
        let db = try ProfileStore.openForReading(path: path)
        return try #require(try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(summary.runID)])?.int64)
    }

    @Test("every built-in scenario, two repeats: rollups equal the GROUP BY reference",
          arguments: BuiltInScenarios.all.map(\.name))
    func builtInScenarios(name: String) throws {
        let temp = try TemporaryDatabase()
        let scenario = try BuiltInScenarios.named(name)
        let summary = try recordOnOwnThread(scenario, database: temp.path, options: RecordOptions(repeats: 2))
        try expectSameAsReference(temp.path, run: try runKey(summary, temp.path))
    }

    @Test("instances out of order, revisited, never created, in several steps: still equal")
    func irregularEvents() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path,
                                          run: RunDescription(scenario: "irregular", baselineStrategy: "a", parameters: [:]))
        func event(_ kind: EventKind, _ component: String, _ strategy: String, repeatIndex: Int, _ instance: Int,
                   bytes: Int, ns: UInt64) -> Event {
            Event(kind: kind, component: component, strategy: strategy, repeatIndex: repeatIndex, instance: instance,
                  allocations: abs(bytes) % 7, frees: 1, netLiveBytes: bytes, netLiveUsableBytes: bytes + bytes.signum() * 8,
                  durationNanoseconds: ns)
        }
        for repeatIndex in 0..<2 {
            try recorder.enterStep("first")
            // Monotonic create and realize, but realize skips instances.
            for i in 0..<40 {
                try recorder.record(event(.create, "A", "a", repeatIndex: repeatIndex, i, bytes: 48 + i % 3, ns: UInt64(100 + i * 37 % 50)))
                if i % 3 == 0 { try recorder.record(event(.realize, "A", "a", repeatIndex: repeatIndex, i, bytes: 700, ns: UInt64(5000 + i))) }
            }
            // Out of order and revisited instances.
            for i in [3, 1, 4, 1, 5, 9, 2, 6] {
                try recorder.record(event(.create, "B", "b", repeatIndex: repeatIndex, i, bytes: 10 * i, ns: UInt64(i * 1_000_003)))
            }
            // Lookups of instances never created, and releases of some that were.
            for i in 0..<10 { try recorder.record(event(.hit, "B", "b", repeatIndex: repeatIndex, 100 + i, bytes: 0, ns: 20)) }
            try recorder.enterStep("second")
            for i in stride(from: 39, through: 0, by: -2) {
                try recorder.record(event(.release, "A", "a", repeatIndex: repeatIndex, i, bytes: -48, ns: UInt64(300 + i)))
            }
            // A create series in a second step of the same subject.
            for i in 40..<45 { try recorder.record(event(.create, "A", "a", repeatIndex: repeatIndex, i, bytes: 64, ns: 1 << 40)) }
            // Two releases per instance, descending (a lazy container and what it realized), of
            // instances all created: the create series covers them.
            for i in 0..<12 {
                try recorder.record(event(.create, "C", "c", repeatIndex: repeatIndex, i, bytes: 40 + i, ns: UInt64(70 + i)))
                if i % 2 == 0 { try recorder.record(event(.realize, "C", "c", repeatIndex: repeatIndex, i, bytes: 300 + i, ns: 900)) }
            }
            for i in stride(from: 11, through: 0, by: -1) {
                try recorder.record(event(.release, "C", "c", repeatIndex: repeatIndex, i, bytes: -40, ns: 30))
                try recorder.record(event(.release, "C", "c", repeatIndex: repeatIndex, i, bytes: -16, ns: 31))
            }
            // Ordered series that repeat an instance in a row, one realizing an instance never created.
            for i in [0, 1, 1, 2, 5] { try recorder.record(event(.create, "D", "d", repeatIndex: repeatIndex, i, bytes: 24 * i, ns: 50)) }
            for i in [1, 1, 3] { try recorder.record(event(.realize, "D", "d", repeatIndex: repeatIndex, i, bytes: 8, ns: 60)) }
        }
        try recorder.finish()
        try expectSameAsReference(temp.path, run: recorder.runKey)
    }

    @Test("creates first, then realizes in a second pass: the instances are merged from the events, still equal")
    func realizedInASecondPass() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path,
                                          run: RunDescription(scenario: "two-pass", baselineStrategy: "a", parameters: [:]))
        func event(_ kind: EventKind, _ repeatIndex: Int, _ instance: Int, bytes: Int) -> Event {
            Event(kind: kind, component: "P", strategy: "a", repeatIndex: repeatIndex, instance: instance, allocations: 1,
                  frees: 0, netLiveBytes: bytes, netLiveUsableBytes: bytes + 8, durationNanoseconds: 100)
        }
        // Instance 0 realizes the most bytes but creates the fewest: only pairing by
        // instance gives the right largest instance. (Two repeats: latency rollups too.)
        for repeatIndex in 0..<2 {
            for i in 0..<10 { try recorder.record(event(.create, repeatIndex, i, bytes: 40 + i)) }
            for i in 0..<10 { try recorder.record(event(.realize, repeatIndex, i, bytes: i == 0 ? 500 : 100)) }
        }
        try recorder.finish()
        try expectSameAsReference(temp.path, run: recorder.runKey)
        let db = try ProfileStore.openForReading(path: temp.path)
        let largest = try db.scalar("SELECT max_instance_requested FROM rollups WHERE run_key = ?", [.integer(recorder.runKey)])
        #expect(largest?.int64 == 540)
    }

    @Test("instances folded by the writer: exact while each instance's events come together, one way")
    func heldInstances() {
        var together = HeldInstances()
        for (instance, bytes) in [(0, 40), (0, 300), (1, 41), (2, 42), (2, 500)] {
            together.add(instance: instance, requested: Int64(bytes), usable: Int64(bytes + 8))
        }
        let folded = together.finished
        #expect(folded.valid && folded.instances == 3)
        #expect(folded.minRequested == 41 && folded.maxRequested == 542)
        #expect(folded.minUsable == 49 && folded.maxUsable == 558)

        var descending = HeldInstances()
        for instance in [5, 4, 4, 1] { descending.add(instance: instance, requested: 1, usable: 1) }
        #expect(descending.finished.valid && descending.finished.instances == 3)

        var secondPass = HeldInstances()
        for instance in [0, 1, 2, 0, 1] { secondPass.add(instance: instance, requested: 1, usable: 1) }
        #expect(!secondPass.finished.valid, "instance 0 came back after 2")
    }

    @Test("ranks above the exact range are read back from the events: still equal")
    func ranksAboveExactRange() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path,
                                          run: RunDescription(scenario: "slow", baselineStrategy: "a", parameters: [:]))
        // 101 durations from 10,000 to 11,999 ns (all in buckets 512 ns wide), then a series
        // whose median is exact (below 4,096 ns) but whose p90 is not.
        let slow: [Int64] = (0..<101).map { (i: Int) -> Int64 in Int64(10_000 + (i * 7919) % 2000) }
        let mixed: [Int64] = (0..<50).map { (i: Int) -> Int64 in i < 40 ? Int64(3000 + i) : Int64(50_000 + i * 3) }
        for repeatIndex in 0..<2 {
            for (i, ns) in slow.enumerated() {
                try recorder.record(Event(kind: .create, component: "S", strategy: "a", repeatIndex: repeatIndex, instance: i,
                                          allocations: 1, frees: 0, netLiveBytes: 32, netLiveUsableBytes: 40,
                                          durationNanoseconds: UInt64(ns)))
            }
            for (i, ns) in mixed.enumerated() {
                try recorder.record(Event(kind: .create, component: "M", strategy: "a", repeatIndex: repeatIndex, instance: i,
                                          allocations: 1, frees: 0, netLiveBytes: 16, netLiveUsableBytes: 24,
                                          durationNanoseconds: UInt64(ns)))
            }
        }
        try recorder.finish()
        try expectSameAsReference(temp.path, run: recorder.runKey)

        // The ranks did land in wide buckets (the read-back path), and the median of the
        // second series in an exact one.
        let sortedSlow = slow.sorted(), sortedMixed = mixed.sorted()
        #expect(!DurationHistogram.isExact(DurationHistogram.bucket(of: sortedSlow[NearestRank.median(of: 101) - 1])))
        #expect(DurationHistogram.isExact(DurationHistogram.bucket(of: sortedMixed[NearestRank.median(of: 50) - 1])))
        #expect(!DurationHistogram.isExact(DurationHistogram.bucket(of: sortedMixed[NearestRank.p90(of: 50) - 1])))
        let db = try ProfileStore.openForReading(path: temp.path)
        let median = try db.scalar("""
            SELECT duration_ns_median FROM step_rollups WHERE run_key = ? AND component = 'S'
            """, [.integer(recorder.runKey)])?.int64
        #expect(median == sortedSlow[NearestRank.median(of: 101) - 1], "the median of both repeats' equal durations")
    }

    @Test("duration buckets are ordered, cover every duration, and locate nearest ranks")
    func histogram() {
        var previous = -1
        for value: Int64 in [0, 1, 15, 16, 17, 31, 32, 33, 1000, 1023, 1024, 4095, 4096, 4097, 4351, 4352, 123_456_789, .max] {
            let bucket = DurationHistogram.bucket(of: value)
            #expect(bucket >= previous)
            previous = bucket
            let range = DurationHistogram.range(of: bucket)
            #expect(range.lower <= value && (value < range.upper || range.upper == .max), "\(value) in \(range)")
            #expect(DurationHistogram.isExact(bucket) == (value < DurationHistogram.exactLimit))
        }
        #expect(DurationHistogram.bucket(of: 4351) == DurationHistogram.bucket(of: 4096), "256 ns wide above 4,096")
        #expect(DurationHistogram.bucket(of: 4352) == DurationHistogram.bucket(of: 4096) + 1)
        var h = DurationHistogram()
        for value: Int64 in [5, 3, 1_000, 1_001, 40, 10_000, 10_001] { h.add(value) }
        #expect(h.locate(rank: 1)?.bucket == DurationHistogram.bucket(of: 3))
        #expect(h.locate(rank: 3)?.bucket == DurationHistogram.bucket(of: 40))
        #expect(h.locate(rank: 5)?.bucket == DurationHistogram.bucket(of: 1_001))
        #expect(h.locate(rank: 5)?.rankInBucket == 1, "1,000 and 1,001 have a bucket each")
        #expect(h.locate(rank: 7)?.rankInBucket == 2, "10,000 and 10,001 share a bucket")
        #expect(h.locate(rank: 8) == nil)
        // Merging histograms that stored different spans, and one that grew downwards.
        var low = DurationHistogram(), high = DurationHistogram()
        for value: Int64 in [3000, 2000, 100, 50] { low.add(value) }
        for value: Int64 in [1 << 30, 4000] { high.add(value) }
        low.merge(high)
        #expect(low.total == 6)
        #expect(low.locate(rank: 1)?.bucket == 50)
        #expect(low.locate(rank: 4)?.bucket == 3000)
        #expect(low.locate(rank: 5)?.bucket == 4000)
        #expect(low.locate(rank: 6)?.bucket == DurationHistogram.bucket(of: 1 << 30))
    }
}
