import Foundation

/// `profctl whatif`'s answers from one recorded trace: each policy's hit ratio and memory
/// at each capacity (the miss-ratio curve), and the smallest capacity that reaches a hit
/// ratio. Plain computation over a `CacheTrace`; the command reads the trace and prints.
package enum WhatIfAnalysis {
    /// Capacities the curve is drawn at when none are asked for: `points` steps growing by
    /// the same factor from the smallest entry (or one entry) to all of them, where
    /// nothing is evicted any more.
    package static func defaultCapacities(_ trace: CacheTrace, unit: CapacityUnit, points: Int = 12) -> [Int] {
        let low: Int, high: Int
        switch unit {
        case .bytes:
            low = max(1, trace.sizes.filter { $0 > 0 }.min() ?? 1)
            high = max(low, trace.totalBytes)
        case .entries:
            low = 1
            high = max(1, trace.distinctKeys)
        }
        guard high > low, points > 1 else { return [high] }
        let factor = pow(Double(high) / Double(low), 1 / Double(points - 1))
        var capacities: [Int] = []
        for step in 0..<points {
            let value = step == points - 1 ? high : Int((Double(low) * pow(factor, Double(step))).rounded())
            if capacities.last != value { capacities.append(value) }
        }
        return capacities
    }

    package static let curveColumns = ["policy", "capacity", "unit", "hits", "misses", "hit_ratio", "evictions",
                                      "peak_resident_bytes", "end_resident_bytes"]

    /// One row per policy and capacity (one row for a policy without capacity): the curve
    /// by simulation, LRU's checked against its stack distances by the tests.
    package static func curve(_ trace: CacheTrace, policies: [CachePolicy], capacities: [Int], unit: CapacityUnit) -> ResultTable {
        var rows: [[SQLValue]] = []
        for policy in policies {
            if policy.takesCapacity {
                for capacity in capacities {
                    rows.append(row(policy, capacity: capacity, unit: unit, policy.replay(trace, capacity: capacity, unit: unit)))
                }
            } else {
                rows.append(row(policy, capacity: nil, unit: unit, policy.replay(trace)))
            }
        }
        return ResultTable(columns: curveColumns, rows: rows)
    }

    private static func row(_ policy: CachePolicy, capacity: Int?, unit: CapacityUnit, _ r: ReplayResult) -> [SQLValue] {
        [.text(policy.rawValue), capacity.map { .integer(Int64($0)) } ?? .null, capacity == nil ? .null : .text(unit.rawValue),
         .init(r.hits), .init(r.misses), ratio(r.hitRatio), .init(r.evictions),
         .init(r.peakResidentBytes), .init(r.endResidentBytes)]
    }

    static func ratio(_ value: Double) -> SQLValue { .real((value * 10_000).rounded() / 10_000) }

    package static let targetColumns = ["policy", "target_hit_ratio", "capacity", "unit", "hit_ratio", "peak_resident_bytes", "how"]

    /// Per policy, the smallest capacity whose hit ratio is at least `target`: exact for LRU
    /// (its stack distances), by bisection for the other bounded policies (which assumes the
    /// ratio grows with the capacity; FIFO's need not: Belady's anomaly), and the replay's own
    /// ratio for the policies without a capacity.
    package static func smallestCapacities(_ trace: CacheTrace, policies: [CachePolicy], target: Double,
                                          unit: CapacityUnit, lru: LRUCurve) -> ResultTable {
        let everything = unit == .bytes ? max(1, trace.totalBytes) : max(1, trace.distinctKeys)
        var rows: [[SQLValue]] = []
        for policy in policies {
            guard policy.takesCapacity else {
                let r = policy.replay(trace)
                let reached = r.hitRatio >= target
                rows.append([.text(policy.rawValue), .real(target), .null, .null, ratio(r.hitRatio), .init(r.peakResidentBytes),
                             .text(reached ? "no capacity: reaches it" : "no capacity: does not reach it")])
                continue
            }
            let found: Int?
            let how: String
            if policy == .lru {
                found = lru.smallestCapacity(forHitRatio: target, unit: unit)
                how = "exact: stack distances"
            } else {
                found = bisect(policy, trace, unit: unit, target: target, upTo: everything)
                how = "bisection"
            }
            guard let capacity = found else {
                let best = policy.replay(trace, capacity: everything, unit: unit)
                rows.append([.text(policy.rawValue), .real(target), .null, .text(unit.rawValue), ratio(best.hitRatio),
                             .init(best.peakResidentBytes), .text("unreachable: first lookups miss at any size")])
                continue
            }
            let r = policy.replay(trace, capacity: capacity, unit: unit)
            rows.append([.text(policy.rawValue), .real(target), .init(capacity), .text(unit.rawValue), ratio(r.hitRatio),
                         .init(r.peakResidentBytes), .text(how)])
        }
        return ResultTable(columns: targetColumns, rows: rows)
    }

    private static func bisect(_ policy: CachePolicy, _ trace: CacheTrace, unit: CapacityUnit, target: Double, upTo high: Int) -> Int? {
        func reaches(_ capacity: Int) -> Bool {
            let r = policy.replay(trace, capacity: capacity, unit: unit)
            return r.requests > 0 && r.hits >= LRUCurve.hitsNeeded(target, of: r.requests)
        }
        guard reaches(high) else { return nil }
        var low = 1, high = high
        while low < high {
            let middle = low + (high - low) / 2
            if reaches(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
