import Foundation

/// Draws ranks 0..<n with Zipf's law (rank r with weight 1 / (r + 1)^s), reproducibly from
/// a seed: the request stream of a cache whose few popular keys take most lookups, as
/// web and image caches see (Breslau et al., "Web caching and Zipf-like distributions",
/// INFOCOM 1999). The cumulative weights are computed once; a draw is a binary search.
package struct ZipfDraws: Sendable {
    private var random: SeededRandom
    private let cumulative: [Double]

    /// `exponent`: s, 0 for uniform draws; around 0.6 to 1.0 for web objects.
    package init(count: Int, exponent: Double, seed: UInt64) {
        random = SeededRandom(seed: seed)
        var running = 0.0
        var sums: [Double] = []
        sums.reserveCapacity(max(count, 1))
        for rank in 0..<max(count, 1) {
            running += 1 / pow(Double(rank + 1), exponent)
            sums.append(running)
        }
        cumulative = sums
    }

    /// A uniform double in [0, 1) from the generator's top 53 bits.
    package mutating func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }

    /// The next rank.
    package mutating func next() -> Int {
        let target = unit() * (cumulative.last ?? 1)
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// A uniform integer in 0..<bound.
    package mutating func below(_ bound: Int) -> Int { random.below(bound) }
}
