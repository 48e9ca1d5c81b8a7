/// LRU's hit ratio at every capacity at once, exact, from one pass over a trace's lookups
/// (stack distances: Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for
/// storage hierarchies", IBM Systems Journal, 1970).
///
/// LRU keeps, at any capacity, a prefix of one recency stack, so a lookup hits at
/// capacity C exactly when its key's depth in the stack fits in C: in entries, one plus
/// the distinct keys used since its last use; in bytes, its own size plus theirs. Those
/// depths come from Fenwick trees over time positions, a key counted only at its latest
/// use: O(log n) a lookup. When the positions run out they are renumbered in order, so
/// the trees hold about twice the distinct keys, whatever the trace's length.
/// The depths in entries become a histogram (one counter per possible depth); the depths
/// in bytes are kept, one integer per lookup that is not a first use, and sorted once.
public struct LRUCurve: Sendable {
    /// Lookups in the trace.
    public let requests: Int
    /// Lookups of a key never seen before: a miss at any capacity.
    public let coldMisses: Int
    /// hitsWithin[c]: lookups that hit with room for c entries (index 0: none).
    private let hitsWithin: [Int]
    /// Depth in bytes of every lookup that is not a first use, ascending.
    private let byteDepths: [Int]

    public init(_ trace: CacheTrace) {
        let sizes = trace.sizes
        var last = [Int32](repeating: -1, count: sizes.count)
        var trees = PositionTrees(capacity: max(1024, 2 * sizes.count))
        var depthCounts = [Int](repeating: 0, count: sizes.count + 1)
        var bytes: [Int] = []
        bytes.reserveCapacity(max(0, trace.requests - sizes.count))
        var requests = 0, cold = 0
        for (operation, key) in zip(trace.operations, trace.keys) where operation.isRequest {
            requests += 1
            let k = Int(key)
            if trees.isFull { trees.renumber(&last) }
            let previous = last[k]
            if previous < 0 {
                cold += 1
            } else {
                let above = trees.after(Int(previous))
                depthCounts[above.count + 1] += 1
                bytes.append(above.bytes + sizes[k])
                trees.clear(Int(previous), bytes: sizes[k])
            }
            last[k] = Int32(trees.append(bytes: sizes[k]))
        }
        var cumulative = [Int](repeating: 0, count: depthCounts.count)
        var running = 0
        for depth in depthCounts.indices {
            running += depthCounts[depth]
            cumulative[depth] = running
        }
        bytes.sort()
        self.requests = requests
        self.coldMisses = cold
        self.hitsWithin = cumulative
        self.byteDepths = bytes
    }

    /// Keys the trace uses: beyond this many entries LRU hits no more.
    public var distinctKeys: Int { hitsWithin.count - 1 }

    /// Hits with room for `capacity` entries.
    public func hits(entries capacity: Int) -> Int {
        guard capacity > 0, !hitsWithin.isEmpty else { return 0 }
        return hitsWithin[min(capacity, hitsWithin.count - 1)]
    }

    /// Hits with room for `capacity` bytes.
    public func hits(bytes capacity: Int) -> Int {
        var low = 0, high = byteDepths.count
        while low < high {
            let middle = (low + high) / 2
            if byteDepths[middle] <= capacity { low = middle + 1 } else { high = middle }
        }
        return low
    }

    public func hitRatio(_ capacity: Int, unit: CapacityUnit) -> Double {
        guard requests > 0 else { return 0 }
        let hits = unit == .bytes ? hits(bytes: capacity) : hits(entries: capacity)
        return Double(hits) / Double(requests)
    }

    /// The smallest capacity whose hit ratio is at least `ratio` (0 < ratio <= 1), or nil
    /// when no capacity reaches it (first uses miss at any size).
    public func smallestCapacity(forHitRatio ratio: Double, unit: CapacityUnit) -> Int? {
        let needed = Self.hitsNeeded(ratio, of: requests)
        guard needed > 0 else { return 0 }
        switch unit {
        case .bytes:
            return needed <= byteDepths.count ? byteDepths[needed - 1] : nil
        case .entries:
            var low = 1, high = hitsWithin.count - 1
            guard high >= 1, hitsWithin[high] >= needed else { return nil }
            while low < high {
                let middle = (low + high) / 2
                if hitsWithin[middle] >= needed { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }

    /// The fewest hits whose share of `requests` lookups is at least `ratio`, computed
    /// without rounding a product of floating-point numbers up past an exact answer.
    public static func hitsNeeded(_ ratio: Double, of requests: Int) -> Int {
        var needed = Int((ratio * Double(requests)).rounded(.up))
        while needed > 0 && Double(needed - 1) / Double(requests) >= ratio { needed -= 1 }
        while needed < requests && Double(needed) / Double(requests) < ratio { needed += 1 }
        return needed
    }
}

/// Two Fenwick trees over time positions (a count and the bytes of the key whose latest
/// use is at each position), with room for `capacity` positions before a renumbering.
struct PositionTrees {
    private var counts: [Int32]
    private var bytes: [Int]
    private(set) var used = 0
    private var totalCount = 0
    private var totalBytes = 0
    /// The size at each position still in use, for renumbering.
    private var sizeAt: [Int]

    init(capacity: Int) {
        counts = Array(repeating: 0, count: capacity + 1)
        bytes = Array(repeating: 0, count: capacity + 1)
        sizeAt = Array(repeating: -1, count: capacity)
    }

    var isFull: Bool { used == sizeAt.count }

    /// Keys counted at positions after `position`, and their bytes.
    func after(_ position: Int) -> (count: Int, bytes: Int) {
        var count = 0, sum = 0
        var i = position + 1
        while i > 0 {
            count += Int(counts[i])
            sum += bytes[i]
            i -= i & -i
        }
        return (totalCount - count, totalBytes - sum)
    }

    mutating func clear(_ position: Int, bytes size: Int) {
        add(position, count: -1, bytes: -size)
        sizeAt[position] = -1
    }

    /// Counts a key at the next position; returns it.
    mutating func append(bytes size: Int) -> Int {
        let position = used
        used += 1
        add(position, count: 1, bytes: size)
        sizeAt[position] = size
        return position
    }

    private mutating func add(_ position: Int, count: Int32, bytes size: Int) {
        totalCount += Int(count)
        totalBytes += size
        var i = position + 1
        while i < counts.count {
            counts[i] += count
            bytes[i] += size
            i += i & -i
        }
    }

    /// Moves the live positions to the front, in order, and rewrites `last` to match; the
    /// trees grow when live keys fill more than half of them. In place: a key's new position
    /// is the count of live positions before its old one, and the trees are rebuilt in
    /// linear time, so a renumbering allocates nothing unless the trees grow.
    mutating func renumber(_ last: inout [Int32]) {
        for k in last.indices where last[k] >= 0 {
            let p = Int(last[k])
            last[k] = Int32(totalCount - after(p).count - 1)
        }
        var live = 0
        for position in sizeAt.indices where sizeAt[position] >= 0 {
            sizeAt[live] = sizeAt[position]
            live += 1
        }
        let capacity = max(sizeAt.count, 2 * live)
        if capacity > sizeAt.count {
            sizeAt += Array(repeating: -1, count: capacity - sizeAt.count)
            counts = Array(repeating: 0, count: capacity + 1)
            bytes = Array(repeating: 0, count: capacity + 1)
        }
        for position in live..<sizeAt.count { sizeAt[position] = -1 }
        // Linear Fenwick construction: each node adds itself to its parent once.
        for i in counts.indices {
            counts[i] = i >= 1 && i <= live ? 1 : 0
            bytes[i] = i >= 1 && i <= live ? sizeAt[i - 1] : 0
        }
        for i in 1..<counts.count {
            let parent = i + (i & -i)
            if parent < counts.count {
                counts[parent] += counts[i]
                bytes[parent] += bytes[i]
            }
        }
        used = live
        totalCount = live
        totalBytes = sizeAt[0..<live].reduce(0, +)
    }
}
