import Foundation
import Profiler
import ProfilerHooks
import ProfilerModel
import ProfilerQueries

/// What `profctl whatif` costs: LRU's curve at every capacity (stack distances) over a
/// synthetic Zipf trace, beside a plain LRU simulation of one capacity over the same trace
/// in the same run, for traces of growing length and distinct keys. Times are the thread's
/// CPU time (this machine's load moves wall times by several times; CPU time much less).
/// Memory: the heap the curve allocated in all, and what it keeps (O(distinct keys) plus
/// one integer per lookup that is not a first use); `--whatif-loop` runs one size alone,
/// for /usr/bin/time's maximum resident set.
struct WhatIfCost {
    let lengths: [Int]
    let keyCounts: [Int]
    let rounds: Int

    func figures(progress: (String) -> Void) throws -> [Figure] {
        var figures: [Figure] = []
        for length in lengths {
            for keys in keyCounts where keys <= length {
                progress("whatif: \(length) lookups over \(keys) keys")
                let trace = Self.trace(length, keys: keys)
                let capacity = max(1, trace.totalBytes / 10)
                var curveSeconds: [Double] = [], simulationSeconds: [Double] = []
                var allocated = 0, kept = 0
                for _ in 0..<rounds {
                    let simulationStart = Self.cpuSeconds()
                    let simulated = CachePolicy.lru.replay(trace, capacity: capacity, unit: .bytes)
                    simulationSeconds.append(Self.cpuSeconds() - simulationStart)
                    let curveStart = Self.cpuSeconds()
                    let measured = try AllocationScope.measure { LRUCurve(trace) }
                    curveSeconds.append(Self.cpuSeconds() - curveStart)
                    allocated = measured.allocations.requestedBytes
                    kept = measured.allocations.netLiveBytes
                    // The two agree, or the figure means nothing.
                    guard measured.value.hits(bytes: capacity) == simulated.hits else {
                        throw ValidationFailure(message: "LRU curve and simulation disagree at \(capacity) bytes")
                    }
                }
                let label = "\(Self.short(length)) lookups, \(Self.short(keys)) keys"
                let curve = median(curveSeconds)
                figures.append(Figure(section: "whatif", metric: "LRU curve, every capacity (\(label))",
                                      baseline: "one LRU simulation", baselineValue: median(simulationSeconds) * 1000,
                                      value: curve * 1000, unit: "ms CPU",
                                      target: length >= 10_000_000 ? "<= 5000 ms" : nil,
                                      met: length >= 10_000_000 ? curve <= 5 : nil))
                figures.append(Figure(section: "whatif", metric: "LRU curve heap allocated in all (\(label))",
                                      baseline: "trace (5 bytes a lookup)", baselineValue: Double(length * 5) / 1_048_576,
                                      value: Double(allocated) / 1_048_576, unit: "MiB", target: nil, met: nil))
                figures.append(Figure(section: "whatif", metric: "LRU curve heap kept (\(label))",
                                      baseline: "trace (5 bytes a lookup)", baselineValue: Double(length * 5) / 1_048_576,
                                      value: Double(kept) / 1_048_576, unit: "MiB", target: nil, met: nil))
            }
        }
        return figures
    }

    /// A Zipf (s = 0.9) trace over `keys` keys of 4 KB to 1 MB, seeded.
    static func trace(_ length: Int, keys: Int) -> CacheTrace {
        var draws = ZipfDraws(count: keys, exponent: 0.9, seed: 28)
        var trace = CacheTrace()
        trace.reserveCapacity(length)
        var seen = [Bool](repeating: false, count: keys)
        for key in 0..<keys {
            _ = trace.key("k\(key)")
            trace.setSize(4096 + draws.below(1_044_480), of: Int32(key))
        }
        for _ in 0..<length {
            let key = draws.next()
            trace.append(seen[key] ? .hit : .miss, key: Int32(key))
            seen[key] = true
        }
        return trace
    }

    /// One size alone (`--whatif-loop LOOKUPS KEYS`): builds the trace, then the curve, then
    /// one simulation, and prints each one's CPU seconds.
    static func loop(lookups: Int, keys: Int) {
        let built = cpuSeconds()
        let trace = trace(lookups, keys: keys)
        let curveStart = cpuSeconds()
        let curve = LRUCurve(trace)
        let simulationStart = cpuSeconds()
        let simulated = CachePolicy.lru.replay(trace, capacity: max(1, trace.totalBytes / 10), unit: .bytes)
        let end = cpuSeconds()
        print(String(format: "trace %.2f s, LRU curve %.2f s (%d distinct), one LRU simulation %.2f s (hit ratio %.4f) CPU",
                     curveStart - built, simulationStart - curveStart, curve.distinctKeys, end - simulationStart, simulated.hitRatio))
    }

    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func short(_ n: Int) -> String {
        n >= 1_000_000 ? "\(n / 1_000_000)M" : n >= 1000 ? "\(n / 1000)k" : "\(n)"
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
