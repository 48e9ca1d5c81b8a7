/// E-Divisive with means (Matteson and James, "A Nonparametric Approach for Multiple Change
/// Point Analysis of Multivariate Data", JASA 2014), as MongoDB runs it on its performance
/// history (Daly et al., "Change Point Detection in Software Performance Testing", ICPE
/// 2020): split a series where the energy distance between the two sides, scaled by their
/// sizes, is largest; keep the split when a permutation test says so; repeat inside the
/// pieces. Nothing about the distribution is assumed, which suits latencies with long tails.
///
/// The exponent on distances is 1 (the paper's and ecp's default). Each candidate split
/// divides a whole current segment in two (MongoDB's form; the paper also searches the
/// segment's end). The test reorders the values inside every current segment `permutations`
/// times with a fixed seed and recomputes the best statistic; the p-value is
/// (reorderings at least as large + 1) / (permutations + 1). Under pure noise any
/// ordering is as likely as another, so a first split is kept by chance with probability at
/// most `significance`.
package enum EDivisive {
    /// The change points of `values`, in order, each with the medians of its neighbouring
    /// levels and its p-value. The same values and parameters always give the same answer.
    package static func changePoints(in values: [Double],
                                    parameters: ChangePointParameters = .standard) -> [ChangePoint] {
        var starts: [Int] = []
        var pValues: [Int: Double] = [:]
        var random = SeededRandom(seed: ChangePointParameters.seed)
        while true {
            let bounds = [0] + starts + [values.count]
            guard let best = bestSplit(values, bounds: bounds, minSegment: parameters.minSegment) else { break }
            guard let p = permutationPValue(of: best.statistic, values, bounds: bounds, parameters: parameters,
                                            random: &random) else { break }
            starts.append(best.index)
            starts.sort()
            pValues[best.index] = p
        }
        return ChangePoint.withMedians(starts: starts, pValues: starts.map { pValues[$0] }, of: values)
    }

    /// The p-value of `observed` when it is significant; nil as soon as enough reorderings
    /// reach it that it cannot be (the rest would not change the answer).
    static func permutationPValue(of observed: Double, _ values: [Double], bounds: [Int],
                                  parameters: ChangePointParameters, random: inout SeededRandom) -> Double? {
        // Sums in another order differ in the last bits: a reordering within rounding of the
        // observed statistic counts as reaching it (the conservative side).
        let reach = observed - 1e-9 * max(1, abs(observed))
        // p = (atLeast + 1) / (permutations + 1) <= significance, in whole reorderings.
        let allowed = Int((parameters.significance * Double(parameters.permutations + 1) + 1e-9).rounded(.down)) - 1
        var shuffled = values
        var atLeast = 0
        for _ in 0..<parameters.permutations {
            for k in 0..<(bounds.count - 1) { random.shuffle(&shuffled, in: bounds[k]..<bounds[k + 1]) }
            if let statistic = bestSplit(shuffled, bounds: bounds, minSegment: parameters.minSegment)?.statistic,
               statistic >= reach {
                atLeast += 1
                if atLeast > allowed { return nil }
            }
        }
        return Double(atLeast + 1) / Double(parameters.permutations + 1)
    }

    /// The split with the largest statistic over all segments, each side at least
    /// `minSegment` long; nil when no segment is long enough to split.
    static func bestSplit(_ values: [Double], bounds: [Int], minSegment: Int) -> (index: Int, statistic: Double)? {
        var best: (index: Int, statistic: Double)?
        for k in 0..<(bounds.count - 1) {
            if let split = bestSplit(values, in: bounds[k]..<bounds[k + 1], minSegment: minSegment),
               split.statistic > best?.statistic ?? -.infinity {
                best = split
            }
        }
        return best
    }

    /// The best split of one segment: for each τ, the scaled energy distance between
    /// values[start..<τ] and values[τ..<end],
    ///   Q = m·n/(m+n) · (2/(m·n) Σ|x−y| − Σ_{i<k}|x_i−x_k| / C(m,2) − Σ_{j<k}|y_j−y_k| / C(n,2)),
    /// with the three sums carried from one τ to the next: O(length²) for the whole segment.
    static func bestSplit(_ values: [Double], in segment: Range<Int>, minSegment: Int) -> (index: Int, statistic: Double)? {
        let length = segment.count
        guard length >= 2 * minSegment else { return nil }
        var within = 0.0  // Σ distances among all values of the segment (the right side at first)
        for i in segment {
            for j in (i + 1)..<segment.upperBound { within += abs(values[i] - values[j]) }
        }
        var left = 0.0, right = within, between = 0.0
        var best: (index: Int, statistic: Double)?
        let taus = segment.lowerBound..<(segment.upperBound - minSegment)
        let sums = distanceSums(values, in: segment, taus: taus)
        for tau in taus {
            // Move values[tau] from the right side to the left one.
            let toLeft = sums.toLeft[tau - taus.lowerBound], toRight = sums.toRight[tau - taus.lowerBound]
            left += toLeft
            right -= toRight
            between += toRight - toLeft
            let m = Double(tau + 1 - segment.lowerBound), n = Double(segment.upperBound - tau - 1)
            guard Int(m) >= minSegment else { continue }
            let statistic = m * n / (m + n)
                * (2 * between / (m * n) - 2 * left / (m * (m - 1)) - 2 * right / (n * (n - 1)))
            if statistic > best?.statistic ?? -.infinity { best = (tau + 1, statistic) }
        }
        return best
    }

    /// For each τ in `taus`: Σ|values[τ] − values[i]| over the segment's i < τ (toLeft) and
    /// over its j > τ (toRight), each summed in ascending order, so every sum is the same to
    /// the last bit as a loop per τ. Four τ are summed side by side: one running sum waits
    /// for the addition before it, four do not wait for each other (the permutation test
    /// spends nearly all of `trend --changes`' time here).
    static func distanceSums(_ values: [Double], in segment: Range<Int>, taus: Range<Int>) -> (toLeft: [Double], toRight: [Double]) {
        var toLeft = [Double](repeating: 0, count: taus.count), toRight = toLeft
        let lower = segment.lowerBound, upper = segment.upperBound
        var tau = taus.lowerBound
        while tau + 4 <= taus.upperBound {
            let x0 = values[tau], x1 = values[tau + 1], x2 = values[tau + 2], x3 = values[tau + 3]
            // Left: i below all four together, then each one's own few, still in ascending i.
            var l0 = 0.0, l1 = 0.0, l2 = 0.0, l3 = 0.0
            for i in lower..<tau {
                let v = values[i]
                l0 += abs(x0 - v); l1 += abs(x1 - v); l2 += abs(x2 - v); l3 += abs(x3 - v)
            }
            l1 += abs(x1 - x0)
            l2 += abs(x2 - x0); l2 += abs(x2 - x1)
            l3 += abs(x3 - x0); l3 += abs(x3 - x1); l3 += abs(x3 - x2)
            // Right: each one's own few first, then j above all four together.
            var r0 = abs(x0 - x1), r1 = abs(x1 - x2), r2 = abs(x2 - x3), r3 = 0.0
            r0 += abs(x0 - x2); r0 += abs(x0 - x3)
            r1 += abs(x1 - x3)
            for j in (tau + 4)..<upper {
                let v = values[j]
                r0 += abs(x0 - v); r1 += abs(x1 - v); r2 += abs(x2 - v); r3 += abs(x3 - v)
            }
            let k = tau - taus.lowerBound
            toLeft[k] = l0; toLeft[k + 1] = l1; toLeft[k + 2] = l2; toLeft[k + 3] = l3
            toRight[k] = r0; toRight[k + 1] = r1; toRight[k + 2] = r2; toRight[k + 3] = r3
            tau += 4
        }
        while tau < taus.upperBound {
            var l = 0.0, r = 0.0
            for i in lower..<tau { l += abs(values[tau] - values[i]) }
            for j in (tau + 1)..<upper { r += abs(values[tau] - values[j]) }
            toLeft[tau - taus.lowerBound] = l
            toRight[tau - taus.lowerBound] = r
            tau += 1
        }
        return (toLeft, toRight)
    }
}
