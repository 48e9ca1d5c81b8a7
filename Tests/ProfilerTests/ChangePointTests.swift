import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// Noise for synthetic series, from its own seeded generator so every run of the tests
/// sees the same numbers.
struct Noise {
    enum Distribution: String, CaseIterable {
        case normal, uniform, exponential, lognormal, cauchy, pareto
    }

    var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Uniform in (0, 1).
    mutating func unit() -> Double { (Double(random.next() >> 11) + 0.5) / 9_007_199_254_740_992 }

    mutating func draw(_ distribution: Distribution) -> Double {
        switch distribution {
        case .normal: (-2 * log(unit())).squareRoot() * cos(2 * Double.pi * unit())
        case .uniform: unit() * 2 - 1
        case .exponential: -log(unit())
        case .lognormal: exp(draw(.normal))
        // No mean nor variance: the heaviest tail a latency could have.
        case .cauchy: tan(Double.pi * (unit() - 0.5))
        // Pareto with shape 1.5: a finite mean, an infinite variance.
        case .pareto: pow(unit(), -1 / 1.5)
        }
    }

    /// `count` draws scaled by `scale` around `level`.
    mutating func series(_ count: Int, level: Double, scale: Double = 1, _ distribution: Distribution = .normal) -> [Double] {
        (0..<count).map { _ in level + scale * draw(distribution) }
    }
}

@Suite("Change points")
struct ChangePointTests {
    @Test("one large shift in the middle is found at the first run of the new level, with both medians")
    func oneLargeShift() throws {
        var noise = Noise(seed: 1)
        let values = noise.series(20, level: 1000, scale: 10) + noise.series(20, level: 1500, scale: 10)
        let found = EDivisive.changePoints(in: values)
        #expect(found.map(\.index) == [20])
        let change = try #require(found.first)
        #expect(abs(change.beforeMedian - 1000) < 10 && abs(change.afterMedian - 1500) < 10)
        #expect(abs((change.shiftPercent ?? 0) - 50) < 2)
        #expect((change.pValue ?? 1) <= ChangePointParameters.defaultSignificance)
    }

    @Test("two shifts, up then down, are both found")
    func twoShifts() {
        var noise = Noise(seed: 2)
        let values = noise.series(15, level: 100, scale: 2) + noise.series(15, level: 130, scale: 2) + noise.series(15, level: 90, scale: 2)
        #expect(EDivisive.changePoints(in: values).map(\.index) == [15, 30])
    }

    @Test("a small shift (2% of the level, 4 standard deviations of its noise) is found at its index",
          arguments: [UInt64(3), 4, 5, 6, 7])
    func smallShift(seed: UInt64) {
        var noise = Noise(seed: seed)
        let values = noise.series(20, level: 1000, scale: 5) + noise.series(20, level: 1020, scale: 5)
        #expect(EDivisive.changePoints(in: values).map(\.index) == [20])
    }

    @Test("a shift of 1.5 standard deviations is found almost always, near its index (as measured for docs/cli.md)")
    func faintShift() {
        var found = 0, near = 0
        for seed in 0..<100 {
            var noise = Noise(seed: 5000 + UInt64(seed))
            let values = noise.series(30, level: 100, scale: 2) + noise.series(30, level: 103, scale: 2)
            let indices = EDivisive.changePoints(in: values).map(\.index)
            if !indices.isEmpty { found += 1 }
            if indices.contains(where: { abs($0 - 30) <= 3 }) { near += 1 }
        }
        print("1.5 sd shift, 30 + 30 runs: found in \(found)%, within 3 runs in \(near)%")
        #expect(found >= 95 && near >= 85, "found \(found), near \(near)")
    }

    @Test("shifts next to either end are found as soon as the minimum segment allows")
    func nearTheEnds() {
        var noise = Noise(seed: 8)
        let early = noise.series(3, level: 200, scale: 1) + noise.series(27, level: 100, scale: 1)
        #expect(EDivisive.changePoints(in: early).map(\.index) == [3])
        let late = noise.series(27, level: 100, scale: 1) + noise.series(3, level: 200, scale: 1)
        #expect(EDivisive.changePoints(in: late).map(\.index) == [27])
        // One run after the shift is not yet a level: nothing to say until the minimum segment is there.
        let tooLate = noise.series(29, level: 100, scale: 1) + [200]
        #expect(EDivisive.changePoints(in: tooLate).isEmpty)
    }

    @Test("a shift in heavy-tailed noise is found")
    func heavyTailedShift() {
        var noise = Noise(seed: 9)
        let values = noise.series(25, level: 1000, scale: 5, .cauchy) + noise.series(25, level: 1100, scale: 5, .cauchy)
        #expect(EDivisive.changePoints(in: values).map(\.index) == [25])
    }

    @Test("the same series gives the same change points and p-values every time")
    func deterministic() {
        var noise = Noise(seed: 10)
        let values = noise.series(20, level: 50, scale: 3, .lognormal) + noise.series(20, level: 56, scale: 3, .lognormal)
        let first = EDivisive.changePoints(in: values)
        #expect(!first.isEmpty)
        #expect(EDivisive.changePoints(in: values) == first)
    }

    @Test("constant and too short series have no change point")
    func degenerate() {
        #expect(EDivisive.changePoints(in: Array(repeating: 7, count: 30)).isEmpty)
        #expect(EDivisive.changePoints(in: [1, 1, 9, 9, 9]).isEmpty, "5 values cannot hold two segments of 3")
        #expect(EDivisive.changePoints(in: []).isEmpty)
    }

    /// Pure noise: the share of series where a change point is found. The permutation test
    /// keeps a first split by chance with probability at most the significance (0.01).
    static func falsePositiveRate(_ distribution: Noise.Distribution, length: Int, series: Int) -> Double {
        var found = 0
        for seed in 0..<series {
            var noise = Noise(seed: 1000 + UInt64(seed))
            if !EDivisive.changePoints(in: noise.series(length, level: 1000, scale: 10, distribution)).isEmpty { found += 1 }
        }
        return Double(found) / Double(series)
    }

    @Test("pure noise gives no change point in at least 97% of series, whatever the distribution",
          arguments: Noise.Distribution.allCases, [20, 60])
    func pureNoise(distribution: Noise.Distribution, length: Int) {
        let rate = Self.falsePositiveRate(distribution, length: length, series: 300)
        print("false positives, \(distribution) noise, \(length) runs: \(rate * 100)%")
        #expect(rate <= 0.03, "\(rate)")
    }

    @Test("exact series change at the first value that differs, beyond the slack")
    func exact() {
        let found = ExactChanges.changePoints(in: [48, 48, 48, 52, 52, 48], slack: Array(repeating: 0, count: 6))
        #expect(found.map(\.index) == [3, 5])
        #expect(found.map(\.beforeMedian) == [48, 52] && found.map(\.afterMedian) == [52, 48])
        #expect(found.first?.pValue == nil)
        #expect(ExactChanges.changePoints(in: [7.5, 7.6, 7.4, 9], slack: [0.2, 0.2, 0.2, 0.2]).map(\.index) == [3])
        #expect(ExactChanges.changePoints(in: [705, 705, 705], slack: [0, 0, 0]).isEmpty)
        #expect(ExactChanges.changePoints(in: [0, 10], slack: [0, 0]).first?.shiftPercent == nil, "no percent of zero")
    }

    @Test("parameters that cannot work are refused with the value")
    func parameters() throws {
        #expect(throws: ChangePointParameters.Invalid.minSegment(1)) { try ChangePointParameters(minSegment: 1) }
        #expect(throws: ChangePointParameters.Invalid.significance(0)) { try ChangePointParameters(significance: 0) }
        #expect(throws: ChangePointParameters.Invalid.significance(1)) { try ChangePointParameters(significance: 1) }
        #expect(throws: ChangePointParameters.Invalid.permutations(0)) { try ChangePointParameters(permutations: 0) }
        #expect(throws: ChangePointParameters.Invalid.permutationsCannotReach(significance: 0.001, permutations: 199, needed: 999)) {
            try ChangePointParameters(significance: 0.001, permutations: 199)
        }
        #expect(throws: (any Error).self) { try ChangePointParameters(significance: .nan) }
        let standard = try ChangePointParameters()
        #expect(standard == .standard)
    }

    @Test("the seeded generator draws every value of a small range about equally")
    func generator() {
        var random = SeededRandom(seed: 42)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<60_000 { counts[random.below(6)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 400 }, "\(counts)")
        var again = SeededRandom(seed: 42), other = SeededRandom(seed: 42)
        #expect((0..<5).map { _ in again.next() } == (0..<5).map { _ in other.next() })
    }
}
