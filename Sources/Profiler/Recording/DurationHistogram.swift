import ProfilerSupport

/// Counts durations one bucket per nanosecond below `exactLimit` (4,096 ns) and in buckets
/// a sixteenth of an octave wide above it, so the writer can tell, for any nearest rank,
/// which duration (below the limit) or which narrow range of durations (above it) holds
/// it without keeping every duration in memory. The rollups read durations back from the
/// events only for a rank in a bucket wider than one nanosecond (`NearestRank`): the
/// medians and p90s of the built-in scenarios are mostly tens to a few thousand ns.
/// Its size depends on the spread of the durations, never on how many there are: at most
/// 16 KB for the exact part (less for a narrower spread) plus 16 counts per octave above it.
struct DurationHistogram {
    /// Counts of buckets `first`, `first + 1`, ...: only the buckets from the lowest duration
    /// seen to the highest are stored.
    private var counts: [UInt32] = []
    private var first = 0
    private(set) var total = 0

    /// Durations below this have a bucket each. A power of two.
    static let exactLimit: Int64 = 4096
    static let subBuckets = 16
    /// log2(exactLimit): the first octave counted in sixteenths.
    private static let firstOctave = 12

    /// The bucket a duration falls in: monotonic in the duration.
    static func bucket(of duration: Int64) -> Int {
        if duration < exactLimit { return Int(max(0, duration)) }
        let value = UInt64(duration)
        let exponent = 63 - value.leadingZeroBitCount          // >= firstOctave
        let sub = Int((value >> UInt64(exponent - 4)) & 15)
        return Int(exactLimit) + (exponent - firstOctave) * subBuckets + sub
    }

    /// The durations bucket `index` holds: lower bound included, upper bound excluded.
    static func range(of index: Int) -> (lower: Int64, upper: Int64) {
        if index < Int(exactLimit) { return (Int64(index), Int64(index + 1)) }
        let exponent = (index - Int(exactLimit)) / subBuckets + firstOctave
        let sub = Int64((index - Int(exactLimit)) % subBuckets)
        let width = Int64(1) << Int64(exponent - 4)
        let lower = (Int64(16) + sub) * width
        // The top bucket's upper bound would overflow: no duration reaches it anyway.
        let (upper, overflow) = lower.addingReportingOverflow(width)
        return (lower, overflow ? .max : upper)
    }

    /// Whether bucket `index` holds one duration value only (its rank needs no read-back).
    static func isExact(_ index: Int) -> Bool { index < Int(exactLimit) }

    mutating func add(_ duration: Int64) {
        let index = Self.bucket(of: duration)
        if index < first || index >= first + counts.count { cover(index) }
        counts[index - first] += 1
        total += 1
    }

    mutating func merge(_ other: DurationHistogram) {
        guard !other.counts.isEmpty else { return }
        cover(other.first)
        cover(other.first + other.counts.count - 1)
        for (offset, count) in other.counts.enumerated() where count > 0 { counts[other.first + offset - first] += count }
        total += other.total
    }

    /// Widens the stored buckets to include `index`. Downwards by at least 64 buckets at a
    /// time, so that durations arriving in falling order do not move the counts each time.
    private mutating func cover(_ index: Int) {
        if counts.isEmpty {
            first = index
            counts = [0]
        } else if index < first {
            let newFirst = max(0, min(index, first - 64))
            counts.insert(contentsOf: repeatElement(0, count: first - newFirst), at: 0)
            first = newFirst
        } else if index >= first + counts.count {
            counts.append(contentsOf: repeatElement(0, count: index + 1 - first - counts.count))
        }
    }

    /// Where the value of 1-based rank `rank` lies: its bucket, and its rank among the
    /// durations of that bucket. Nil when the rank is out of range.
    func locate(rank: Int) -> (bucket: Int, rankInBucket: Int)? {
        guard rank >= 1, rank <= total else { return nil }
        var below = 0
        for (offset, count) in counts.enumerated() where count > 0 {
            if below + Int(count) >= rank { return (first + offset, rank - below) }
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
