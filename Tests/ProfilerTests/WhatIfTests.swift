import Foundation
import Profiler
import Testing
import ProfctlTestSupport
import ProfilerModel
import ProfilerQueries
import ProfilerScenarios
import ProfilerStore

/// profctl whatif's computation (docs/cli.md, "whatif"): LRU's stack distances agree with
/// its simulation at every capacity, the simulators follow their papers on small traces,
/// and replaying a recorded run reproduces it exactly for every built-in cache strategy.
@Suite("What-if cache curves")
struct WhatIfTests {
    /// A Zipf trace of `count` lookups over `keys` keys with sizes from 1 to 1000 bytes.
    static func zipfTrace(_ count: Int, keys: Int, skew: Double = 0.9, seed: UInt64 = 7) -> CacheTrace {
        var draws = ZipfDraws(count: keys, exponent: skew, seed: seed)
        var trace = CacheTrace()
        var sizes: [Int] = []
        for _ in 0..<keys { sizes.append(1 + draws.below(1000)) }
        var seen = Set<Int>()
        for _ in 0..<count {
            let rank = draws.next()
            trace.append(seen.insert(rank).inserted ? .miss : .hit, name: "k\(rank)", bytes: sizes[rank])
        }
        return trace
    }

    /// A trace from names: lowercase a hit if seen before (an unbounded cache's trace), bytes by name.
    static func trace(_ names: String, sizes: [Character: Int] = [:]) -> CacheTrace {
        var trace = CacheTrace()
        var seen = Set<Character>()
        for name in names {
            trace.append(seen.insert(name).inserted ? .miss : .hit, name: String(name), bytes: sizes[name] ?? 1)
        }
        return trace
    }

    @Test("LRU's stack distances equal its simulation at every capacity, in entries and in bytes, across renumberings")
    func stackDistancesMatchSimulation() throws {
        // 5,000 lookups over 60 keys: the position trees (1,024 positions) fill and renumber several times.
        for (count, keys) in [(5000, 60), (3000, 700)] {
            let trace = Self.zipfTrace(count, keys: keys)
            let curve = LRUCurve(trace)
            #expect(curve.requests == count)
            for entries in [1, 2, 3, 5, 8, 13, 40, keys - 1, keys, keys + 5] {
                let simulated = CachePolicy.lru.replay(trace, capacity: entries, unit: .entries)
                #expect(curve.hits(entries: entries) == simulated.hits, "\(entries) entries, \(keys) keys")
            }
            for bytes in stride(from: 1, through: trace.totalBytes + 1000, by: max(1, trace.totalBytes / 37)) {
                let simulated = CachePolicy.lru.replay(trace, capacity: bytes, unit: .bytes)
                #expect(curve.hits(bytes: bytes) == simulated.hits, "\(bytes) bytes, \(keys) keys")
            }
        }
    }

    @Test("the smallest capacity for a hit ratio reaches it and one byte less does not (LRU, exact)")
    func smallestCapacityIsExact() throws {
        let trace = Self.zipfTrace(4000, keys: 300)
        let curve = LRUCurve(trace)
        for target in [0.1, 0.35, 0.5, 0.62, 0.75] {
            let bytes = try #require(curve.smallestCapacity(forHitRatio: target, unit: .bytes))
            #expect(CachePolicy.lru.replay(trace, capacity: bytes, unit: .bytes).hitRatio >= target)
            #expect(CachePolicy.lru.replay(trace, capacity: bytes - 1, unit: .bytes).hitRatio < target)
            let entries = try #require(curve.smallestCapacity(forHitRatio: target, unit: .entries))
            #expect(CachePolicy.lru.replay(trace, capacity: entries, unit: .entries).hitRatio >= target)
            #expect(CachePolicy.lru.replay(trace, capacity: entries - 1, unit: .entries).hitRatio < target)
        }
        // First lookups miss at any size: a ratio above the unbounded cache's is unreachable.
        let best = CachePolicy.unbounded.replay(trace).hitRatio
        #expect(curve.smallestCapacity(forHitRatio: min(1, best + 0.01), unit: .bytes) == nil)
        let table = WhatIfAnalysis.smallestCapacities(trace, policies: CachePolicy.allCases, target: 0.5, unit: .bytes, lru: curve)
        #expect(table.rows.count == CachePolicy.allCases.count)
        #expect(table.rows.first?[6] == .text("exact: stack distances"))
    }

    @Test("the bounded policies on hand-checked traces")
    func simulatorsOnSmallTraces() {
        // Three slots, A B C A D A B: LRU keeps A and evicts B then C; FIFO evicts A first.
        let trace = Self.trace("ABCADAB")
        #expect(CachePolicy.lru.replay(trace, capacity: 3, unit: .entries).hits == 2)   // A, A; B was evicted by D
        #expect(CachePolicy.fifo.replay(trace, capacity: 3, unit: .entries).hits == 1)  // A; D evicts A, A evicts B
        // LFU: A is used three times; D evicts the least used, oldest (B), so B misses again.
        #expect(CachePolicy.lfu.replay(trace, capacity: 3, unit: .entries).hits == 2)
        // SIEVE: A's hit sets its bit; D's miss passes A (clearing it) and evicts B.
        let sieve = CachePolicy.sieve.replay(trace, capacity: 3, unit: .entries)
        #expect(sieve.hits == 2 && sieve.evictions == 2)
        // 2Q: a one-off scan of new keys never pushes a key used twice out of the main LRU.
        let scan = Self.trace("ABAB" + "CDEFGHIJ" + "AB")
        #expect(CachePolicy.twoQ.replay(scan, capacity: 8, unit: .entries).hits
                    >= CachePolicy.fifo.replay(scan, capacity: 8, unit: .entries).hits)
        // An entry larger than the capacity is not kept, and making room for it empties the cache.
        let big = Self.trace("ABA", sizes: ["A": 4, "B": 20])
        #expect(CachePolicy.lru.replay(big, capacity: 10, unit: .bytes).hits == 0)
        #expect(LRUCurve(big).hits(bytes: 10) == 0)
        #expect(LRUCurve(big).hits(bytes: 24) == 1)
    }

    @Test("capacities: units, and zero or potatoes refused with the valid units")
    func capacityParsing() throws {
        #expect(try ByteCapacity.parse("4096", unit: .bytes) == 4096)
        #expect(try ByteCapacity.parse("512KB", unit: .bytes) == 512_000)
        #expect(try ByteCapacity.parse("1.5 MiB", unit: .bytes) == 1_572_864)
        #expect(try ByteCapacity.parse("12", unit: .entries) == 12)
        #expect(throws: CapacityError.self) { try ByteCapacity.parse("12 potatoes", unit: .bytes) }
        #expect(throws: CapacityError.self) { try ByteCapacity.parse("0", unit: .bytes) }
        #expect(throws: CapacityError.self) { try ByteCapacity.parse("1.5", unit: .entries) }
        do {
            _ = try ByteCapacity.parse("12 potatoes", unit: .bytes)
        } catch let error as CapacityError {
            #expect(error.description.contains("KB, MB, GB, KiB, MiB, GiB"), "\(error)")
        }
    }

    @Test("the default capacities grow by one factor from the smallest entry to all of them")
    func defaultCapacities() {
        let trace = Self.zipfTrace(500, keys: 50)
        let capacities = WhatIfAnalysis.defaultCapacities(trace, unit: .bytes)
        #expect(capacities.last == trace.totalBytes)
        #expect(capacities.first == trace.sizes.min())
        #expect(capacities == capacities.sorted())
        #expect(WhatIfAnalysis.defaultCapacities(trace, unit: .entries).last == trace.distinctKeys)
    }

    /// Records image-cache and replays every strategy's trace as the policy it is.
    func replayChecks(_ parameters: [String: ParameterValue]) throws -> [ReplayCheck] {
        let temp = try TemporaryDatabase()
        let scenario = ImageCacheScenario()
        try recordOnOwnThread(scenario, database: temp.path, options: RecordOptions(parameters: parameters))
        let db = try ProfileStore.openForReading(path: temp.path)
        let run = try RunQueries.resolve("latest", in: db)
        let strategies = try CacheTraceQuery.strategies(runID: run.runID, in: db)
        #expect(strategies == scenario.strategies)
        return try strategies.map { strategy in
            let policy = try #require(scenario.cachePolicies[strategy])
            return ReplayCheck(strategy: strategy, policy: policy,
                               trace: try CacheTraceQuery.load(runID: run.runID, strategy: strategy, in: db),
                               recordedEndBytes: try CacheTraceQuery.endLiveBytes(runID: run.runID, strategy: strategy, in: db))
        }
    }

    @Test("replaying each built-in cache strategy's trace reproduces its hits, misses, evictions and bytes exactly: seed experiment")
    func replayReproducesSeedExperiment() throws {
        let checks = try replayChecks([:])
        #expect(checks.count == 4)
        for check in checks {
            #expect(check.matches, "\(check.row)")
            #expect(check.replayed.mismatches == 0)
        }
        // The sweep evicted both images at the idle turn, and the replay did too.
        #expect(checks.first { $0.strategy == "sweep-cache" }?.replayed.evictions == 2)
    }

    @Test("replaying reproduces a Zipf trace with a window of shown images and idle turns, every strategy")
    func replayReproducesZipfTrace() throws {
        let checks = try replayChecks(["requests": .int(600), "images": .int(40), "window": .int(8), "idle_every": .int(50),
                                       "icon_side": .int(8), "photo_side": .int(64)])
        #expect(checks.count == 4)
        for check in checks {
            #expect(check.matches, "\(check.row)")
            #expect(check.recordedHits + check.recordedMisses == 600)
        }
        // The shape is worth reading: the weak cache hits less than the sweeping one, which
        // hits less than the strong one, and sweeps evicted.
        let hits = Dictionary(uniqueKeysWithValues: checks.map { ($0.strategy, $0.recordedHits) })
        #expect((hits["weak-cache"] ?? 0) < (hits["sweep-cache"] ?? 0))
        #expect((hits["sweep-cache"] ?? 0) < (hits["strong-cache"] ?? 0))
        #expect((checks.first { $0.strategy == "sweep-cache" }?.recordedEvictions ?? 0) > 0)
    }
}

/// The cache users adopt (MeasuredCache): its events are a trace that LRU's replay at the
/// same limit reproduces, hit for hit, eviction for eviction, byte for byte.
@Suite("MeasuredCache")
struct MeasuredCacheTests {
    final class Blob {
        let bytes: [UInt8]
        init(_ count: Int) { bytes = [UInt8](repeating: 1, count: count) }
    }

    /// Lookups of a Zipf stream through a cache on a thread of its own; the trace its events
    /// make, and the bytes it holds at the end.
    func record(_ limit: MeasuredCache<Blob>.Limit, lookups: Int) throws -> (CacheTrace, Int) {
        let sink = CollectingSink()
        let resident = try onOwnThread { () throws -> Int in
            let cache = MeasuredCache<Blob>(limit: limit)
            let probe = Probe(sink: sink, component: "cache", strategy: "lru")
            var draws = ZipfDraws(count: 40, exponent: 0.8, seed: 3)
            let sizes = (0..<40).map { _ in 64 + draws.below(4000) }
            for _ in 0..<lookups {
                let key = draws.next()
                _ = keep(try cache.value(forKey: "b\(key)", probe: probe) { Blob(sizes[key]) })
            }
            try cache.idle(probe: probe)
            return cache.residentBytes
        }
        var trace = CacheTrace()
        for event in sink.events {
            guard let operation = CacheTrace.Operation(eventKind: event.kind.rawValue) else { continue }
            trace.append(operation, name: event.component, bytes: event.netLiveBytes)
        }
        return (trace, resident)
    }

    @Test("replaying its trace as lru at its limit reproduces every lookup, eviction and byte held, in bytes and in entries")
    func replayReproducesIt() throws {
        for (limit, capacity, unit) in [(MeasuredCache<Blob>.Limit.bytes(20_000), 20_000, CapacityUnit.bytes), (.entries(9), 9, .entries)] {
            let (trace, resident) = try record(limit, lookups: 1500)
            let replayed = CachePolicy.lru.replay(trace, capacity: capacity, unit: unit)
            #expect(trace.requests == 1500)
            #expect(replayed.mismatches == 0, "\(limit)")
            #expect(replayed.evictions == trace.recordedEvictions && trace.recordedEvictions > 0, "\(limit)")
            #expect(replayed.endResidentBytes == resident, "\(limit)")
            #expect(trace.operations.last == .idle)
        }
    }
}
