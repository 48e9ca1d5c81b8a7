import ProfilerSupport

/// Counts durations in buckets a sixteenth of an octave wide (exact below 16 ns), so the
/// writer can tell, for any nearest rank, which narrow range of durations holds it
/// without keeping every duration in memory. The rollups then read only the durations
/// in that range back from the events to find the exact value (`NearestRank`).
/// Its size depends on the spread of the durations, never on how many there are.
struct DurationHistogram: Equatable {
    private(set) var counts: [UInt32] = []
    private(set) var total = 0

    static let subBuckets = 16

    /// The bucket a duration falls in: monotonic in the duration.
    static func bucket(of duration: Int64) -> Int {
        let value = UInt64(max(0, duration))
        if value < UInt64(subBuckets) { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount          // >= 4
        let sub = Int((value >> UInt64(exponent - 4)) & 15)
        return subBuckets + (exponent - 4) * subBuckets + sub
    }

    /// The durations bucket `index` holds: lower bound included, upper bound excluded.
    static func range(of index: Int) -> (lower: Int64, upper: Int64) {
        if index < subBuckets { return (Int64(index), Int64(index + 1)) }
        let exponent = (index - subBuckets) / subBuckets + 4
        let sub = Int64((index - subBuckets) % subBuckets)
        let width = Int64(1) << Int64(exponent - 4)
        let lower = (Int64(16) + sub) * width
        // The top bucket's upper bound would overflow: no duration reaches it anyway.
        let (upper, overflow) = lower.addingReportingOverflow(width)
        return (lower, overflow ? .max : upper)
    }

    mutating func add(_ duration: Int64) {
        let index = Self.bucket(of: duration)
        if index >= counts.count { counts.append(contentsOf: repeatElement(0, count: index + 1 - counts.count)) }
        counts[index] += 1
        total += 1
    }

    mutating func merge(_ other: DurationHistogram) {
        if other.counts.count > counts.count {
            counts.append(contentsOf: repeatElement(0, count: other.counts.count - counts.count))
        }
        for (index, count) in other.counts.enumerated() { counts[index] += count }
        total += other.total
    }

    /// Where the value of 1-based rank `rank` lies: its bucket, and its rank among the
    /// durations of that bucket. Nil when the rank is out of range.
    func locate(rank: Int) -> (bucket: Int, rankInBucket: Int)? {
        guard rank >= 1, rank <= total else { return nil }
        var below = 0
        for (index, count) in counts.enumerated() where count > 0 {
            if below + Int(count) >= rank { return (index, rank - below) }
            below += Int(count)
        }
        return nil
    }
}

/// The nearest-rank positions profctl reports: the median and the 90th percentile of n
/// values, 1-based, as the rollups' SQL has always defined them.
enum NearestRank {
    static func median(of count: Int) -> Int { (count + 1) / 2 }
    static func p90(of count: Int) -> Int { (9 * count + 9) / 10 }
}
