import ProfilerSupport

/// Where a series moved to a new level: the first index of the new level and the
/// medians of the level before and of the level after it.
package struct ChangePoint: Sendable, Equatable {
    /// The first index (into the series given) of the new level.
    package let index: Int
    /// The median of the values from the previous change point (or the start) up to `index`.
    package let beforeMedian: Double
    /// The median of the values from `index` up to the next change point (or the end).
    package let afterMedian: Double
    /// The permutation test's p-value for a latency change point; nil for an exact series,
    /// where any difference is a change.
    package let pValue: Double?

    package init(index: Int, beforeMedian: Double, afterMedian: Double, pValue: Double?) {
        self.index = index
        self.beforeMedian = beforeMedian
        self.afterMedian = afterMedian
        self.pValue = pValue
    }

    /// The shift in percent of the level before; nil when that level is 0.
    package var shiftPercent: Double? {
        beforeMedian == 0 ? nil : (afterMedian - beforeMedian) / abs(beforeMedian) * 100
    }
}

/// The knobs of the E-Divisive search (docs/cli.md, trend), each checked when made.
package struct ChangePointParameters: Sendable, Equatable {
    /// A value that cannot be used, with the value; the caller names its own option.
    package enum Invalid: Error, Sendable, Equatable {
        /// Fewer than 2 runs on a side: one run is not a level.
        case minSegment(Int)
        /// Not strictly between 0 and 1.
        case significance(Double)
        /// Fewer than 1 or more than `maxPermutations`.
        case permutations(Int)
        /// So few permutations that the smallest p-value they can give, 1 / (permutations + 1),
        /// is above the significance level: nothing could ever be found. `needed` is the least
        /// number that can.
        case permutationsCannotReach(significance: Double, permutations: Int, needed: Int)
    }

    /// Three runs on a side: a pair of runs is too little to call a level.
    package static let defaultMinSegment = 3
    /// One split in a hundred kept by chance in pure noise.
    package static let defaultSignificance = 0.01
    /// ecp's default; the smallest p-value it can give is 1/200, below the default significance.
    package static let defaultPermutations = 199
    /// A bound on the work one test may ask for.
    package static let maxPermutations = 100_000
    /// The permutation test's seed: fixed, so the same history gives the same answer.
    package static let seed: UInt64 = 0x5EED_C4A9_6E90_1A75

    /// The fewest points on each side of a change point.
    package let minSegment: Int
    /// A change point is kept when its permutation p-value is at most this.
    package let significance: Double
    /// How many random reorderings the test compares the observed split with.
    package let permutations: Int

    package init(minSegment: Int = defaultMinSegment, significance: Double = defaultSignificance,
                permutations: Int = defaultPermutations) throws(Invalid) {
        guard minSegment >= 2 else { throw .minSegment(minSegment) }
        guard significance > 0, significance < 1 else { throw .significance(significance) }
        guard permutations >= 1, permutations <= Self.maxPermutations else { throw .permutations(permutations) }
        // Smallest p is 1 / (R + 1): it must not exceed the significance level.
        let needed = Int((1 / significance - 1).rounded(.up))
        guard Double(1) / Double(permutations + 1) <= significance else {
            throw .permutationsCannotReach(significance: significance, permutations: permutations, needed: needed)
        }
        self.minSegment = minSegment
        self.significance = significance
        self.permutations = permutations
    }

    /// The defaults (they are valid by construction).
    package static let standard = ChangePointParameters(checkedMinSegment: defaultMinSegment,
                                                        significance: defaultSignificance, permutations: defaultPermutations)

    private init(checkedMinSegment: Int, significance: Double, permutations: Int) {
        minSegment = checkedMinSegment
        self.significance = significance
        self.permutations = permutations
    }
}

/// Change points of an exact series (bytes, counts): a new level begins at each value that
/// differs from the one before it by more than the slack both allow (0 for bytes; see
/// RunMetric.slackPerRun for counts). No statistics: the figures repeat exactly.
package enum ExactChanges {
    /// The change points of `values`, where `slack[i]` is how far `values[i]` may move
    /// between identical runs.
    package static func changePoints(in values: [Double], slack: [Double]) -> [ChangePoint] {
        guard values.count > 1 else { return [] }
        let starts = (1..<values.count).filter { i in
            abs(values[i] - values[i - 1]) > max(slack.element(i) ?? 0, slack.element(i - 1) ?? 0)
        }
        return ChangePoint.withMedians(starts: starts, pValues: starts.map { _ in nil }, of: values)
    }
}

extension ChangePoint {
    /// Change points at `starts` (ascending), each with the medians of its neighbouring levels.
    static func withMedians(starts: [Int], pValues: [Double?], of values: [Double]) -> [ChangePoint] {
        let bounds = [0] + starts + [values.count]
        return starts.indices.map { k in
            ChangePoint(index: starts[k], beforeMedian: median(Array(values[bounds[k]..<bounds[k + 1]])),
                        afterMedian: median(Array(values[bounds[k + 1]..<bounds[k + 2]])), pValue: pValues[k])
        }
    }
}

extension Array {
    fileprivate func element(_ index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
