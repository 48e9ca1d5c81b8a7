import Foundation

/// The Mann-Whitney U test (two-sided): do two samples come from the same distribution?
/// Exact by counting rank-sum arrangements for small samples without ties, the normal
/// approximation with tie correction otherwise. No distribution is assumed, which suits
/// latencies with their long tails.
package enum MannWhitney {
    package struct Result: Sendable, Equatable {
        package let u: Double
        package let pValue: Double
    }

    package static func test(_ a: [Double], _ b: [Double]) -> Result? {
        let n1 = a.count, n2 = b.count
        guard n1 > 0, n2 > 0 else { return nil }
        // Ranks of the pooled sample, ties sharing their mean rank.
        let pooled = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieGroups: [Int] = []
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i...j { ranks[k] = rank }
            if j > i { tieGroups.append(j - i + 1) }
            i = j + 1
        }
        let r1 = zip(pooled, ranks).filter { $0.0.1 == 0 }.map(\.1).reduce(0, +)
        let u1 = r1 - Double(n1 * (n1 + 1)) / 2
        let u = min(u1, Double(n1 * n2) - u1)
        if tieGroups.isEmpty && n1 * n2 <= 400 {
            return Result(u: u, pValue: min(1, 2 * exactLowerTail(u: Int(u), n1: n1, n2: n2)))
        }
        let n = Double(n1 + n2)
        let tieTerm = tieGroups.map { Double($0 * $0 * $0 - $0) }.reduce(0, +)
        let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return Result(u: u, pValue: 1) }
        let z = (abs(u - Double(n1 * n2) / 2) - 0.5) / variance.squareRoot()
        return Result(u: u, pValue: min(1, max(0, erfc(z / 2.squareRoot()))))
    }

    /// P(U <= u) under the null hypothesis, by counting: the number of ways n1 items
    /// among n1 + n2 give each U value.
    static func exactLowerTail(u: Int, n1: Int, n2: Int) -> Double {
        // ways[i][j][k]: arrangements of i and j items with U = k, built up one item at a time.
        let maxU = n1 * n2
        var previous = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n2 + 1)
        for j in 0...n2 { previous[j][0] = 1 }
        if n1 > 0 {
            for _ in 1...n1 {
                var current = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n2 + 1)
                current[0][0] = 1
                if n2 > 0 {
                    for j in 1...n2 {
                        for k in 0...maxU {
                            // The largest item belongs to sample 1 (adds j to U) or to sample 2.
                            let fromFirst = k >= j ? previous[j][k - j] : 0
                            current[j][k] = fromFirst + current[j - 1][k]
                        }
                    }
                }
                previous = current
            }
        }
        let counts = previous[n2]
        let total = counts.reduce(0, +)
        return counts[0...min(u, maxU)].reduce(0, +) / total
    }

    /// The smallest p-value samples of these sizes can reach: below the significance
    /// level, or the test can never say "different".
    package static func smallestPValue(n1: Int, n2: Int) -> Double {
        guard n1 > 0, n2 > 0 else { return 1 }
        return min(1, 2 * exactLowerTail(u: 0, n1: n1, n2: n2))
    }
}
