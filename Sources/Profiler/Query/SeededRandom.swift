/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a tiny generator whose output depends only on its seed, so a permutation
/// test gives the same answer for the same series on every machine and toolchain.
/// `shuffle(using:)` of the standard library is not used because its algorithm is not
/// promised to stay the same between Swift versions. The tests draw their reproducible
/// sequences from it too (it is a `RandomNumberGenerator`).
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<bound (bound > 0), without modulo bias: draws that fall in
    /// the incomplete last block of 2^64 are thrown away.
    package mutating func below(_ bound: Int) -> Int {
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let draw = next()
            if draw >= threshold { return Int(draw % limit) }
        }
    }

    /// Fisher-Yates shuffle of `values[range]` in place.
    mutating func shuffle(_ values: inout [Double], in range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in stride(from: range.upperBound - 1, to: range.lowerBound, by: -1) {
            let j = range.lowerBound + below(i - range.lowerBound + 1)
            values.swapAt(i, j)
        }
    }
}
