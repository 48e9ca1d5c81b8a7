import Foundation
import Profiler
import ProfilerHooks
import ProfilerModel
import ProfilerQueries

/// What `profctl whatif` costs: LRU's curve at every capacity (stack distances) over a
/// synthetic Zipf trace, beside a plain LRU simulation of one capacity over the same trace
/// in the same run, for traces of growing length and distinct keys. Memory is the heap the
/// curve's computation allocated in all (an upper bound of its peak: what it keeps is
/// O(distinct keys) plus one integer per lookup that is not a first use).
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
                var allocated = 0
                for _ in 0..<rounds {
                    let simulationStart = Date()
                    let simulated = CachePolicy.lru.replay(trace, capacity: capacity, unit: .bytes)
                    simulationSeconds.append(Date().timeIntervalSince(simulationStart))
                    let curveStart = Date()
                    let measured = try AllocationScope.measure { LRUCurve(trace) }
                    curveSeconds.append(Date().timeIntervalSince(curveStart))
                    allocated = measured.allocations.requestedBytes
                    // The two agree, or the figure means nothing.
                    guard measured.value.hits(bytes: capacity) == simulated.hits else {
                        throw ValidationFailure(message: "LRU curve and simulation disagree at \(capacity) bytes")
                    }
                }
                let label = "\(Self.short(length)) lookups, \(Self.short(keys)) keys"
                let curve = median(curveSeconds)
                figures.append(Figure(section: "whatif", metric: "LRU curve, every capacity (\(label))",
                                      baseline: "one LRU simulation", baselineValue: median(simulationSeconds) * 1000,
                                      value: curve * 1000, unit: "ms",
                                      target: length >= 10_000_000 ? "<= 5000 ms" : nil,
                                      met: length >= 10_000_000 ? curve <= 5 : nil))
                figures.append(Figure(section: "whatif", metric: "LRU curve heap allocated (\(label))",
                                      baseline: "trace (5 bytes a lookup)", baselineValue: Double(length * 5) / 1_048_576,
                                      value: Double(allocated) / 1_048_576, unit: "MiB", target: nil, met: nil))
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

    static func short(_ n: Int) -> String {
        n >= 1_000_000 ? "\(n / 1_000_000)M" : n >= 1000 ? "\(n / 1000)k" : "\(n)"
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
