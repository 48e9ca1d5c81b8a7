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
package struct LRUCurve: Sendable {
    /// Lookups in the trace.
    package let requests: Int
    /// Lookups of a key never seen before: a miss at any capacity.
    package let coldMisses: Int
    /// hitsWithin[c]: lookups that hit with room for c entries (index 0: none).
    private let hitsWithin: [Int]
    /// Depth in bytes of every lookup that is not a first use, ascending.
    private let byteDepths: [Int]

    package init(_ trace: CacheTrace) {
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
        RadixSort.sort(&bytes)
        self.requests = requests
        self.coldMisses = cold
        self.hitsWithin = cumulative
        self.byteDepths = bytes
    }

    /// Keys the trace uses: beyond this many entries LRU hits no more.
    package var distinctKeys: Int { hitsWithin.count - 1 }

    /// Hits with room for `capacity` entries.
    package func hits(entries capacity: Int) -> Int {
        guard capacity > 0, !hitsWithin.isEmpty else { return 0 }
        return hitsWithin[min(capacity, hitsWithin.count - 1)]
    }

    /// Hits with room for `capacity` bytes.
    package func hits(bytes capacity: Int) -> Int {
        var low = 0, high = byteDepths.count
        while low < high {
            let middle = (low + high) / 2
            if byteDepths[middle] <= capacity { low = middle + 1 } else { high = middle }
        }
        return low
    }

    package func hitRatio(_ capacity: Int, unit: CapacityUnit) -> Double {
        guard requests > 0 else { return 0 }
        let hits = unit == .bytes ? hits(bytes: capacity) : hits(entries: capacity)
        return Double(hits) / Double(requests)
    }

    /// The smallest capacity whose hit ratio is at least `ratio` (0 < ratio <= 1), or nil
    /// when no capacity reaches it (first uses miss at any size).
    package func smallestCapacity(forHitRatio ratio: Double, unit: CapacityUnit) -> Int? {
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
    package static func hitsNeeded(_ ratio: Double, of requests: Int) -> Int {
        var needed = Int((ratio * Double(requests)).rounded(.up))
        while needed > 0 && Double(needed - 1) / Double(requests) >= ratio { needed -= 1 }
        while needed < requests && Double(needed) / Double(requests) < ratio { needed += 1 }
        return needed
    }
}

/// Two Fenwick trees over time positions (a count and the bytes of the key whose latest
/// use is at each position), with room for `capacity` positions before a renumbering.
/// The two trees are one array of pairs: every step of a query or update reads the count
/// and the bytes at the same index, so one cache line serves both (with 1M distinct keys
/// the trees are 32 MB and nearly every step is a cache miss).
struct PositionTrees {
    private struct Node {
        var count: Int
        var bytes: Int
    }

    private var nodes: [Node]
    private(set) var used = 0
    private var totalCount = 0
    private var totalBytes = 0
    /// The size at each position still in use, for renumbering.
    private var sizeAt: [Int]

    init(capacity: Int) {
        nodes = Array(repeating: Node(count: 0, bytes: 0), count: capacity + 1)
        sizeAt = Array(repeating: -1, count: capacity)
    }

    var isFull: Bool { used == sizeAt.count }

    /// Keys counted at positions after `position`, and their bytes.
    func after(_ position: Int) -> (count: Int, bytes: Int) {
        var count = 0, sum = 0
        nodes.withUnsafeBufferPointer { nodes in
            var i = position + 1
            while i > 0 {
                count &+= nodes[i].count
                sum &+= nodes[i].bytes
                i -= i & -i
            }
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

    private mutating func add(_ position: Int, count: Int, bytes size: Int) {
        totalCount += count
        totalBytes += size
        nodes.withUnsafeMutableBufferPointer { nodes in
            var i = position + 1
            while i < nodes.count {
                nodes[i].count &+= count
                nodes[i].bytes &+= size
                i += i & -i
            }
        }
    }

    /// Moves the live positions to the front, in order, and rewrites `last` to match; the
    /// trees grow when live keys fill more than half of them. A key's new position is the
    /// count of live positions before its old one, and the trees are rebuilt in linear
    /// time: a renumbering allocates one map of positions, and the trees only when they grow.
    mutating func renumber(_ last: inout [Int32]) {
        // A live position's new number is the count of live positions before it: one scan
        // over the positions (sizeAt becomes that map while the live sizes move to the
        // front), then one lookup per key, where a tree query per key took log n steps.
        var live = 0
        var newPosition = [Int32](repeating: -1, count: sizeAt.count)
        for position in sizeAt.indices where sizeAt[position] >= 0 {
            newPosition[position] = Int32(live)
            sizeAt[live] = sizeAt[position]
            live += 1
        }
        for k in last.indices where last[k] >= 0 {
            last[k] = newPosition[Int(last[k])]
        }
        let capacity = max(sizeAt.count, 2 * live)
        if capacity > sizeAt.count {
            sizeAt += Array(repeating: -1, count: capacity - sizeAt.count)
            nodes = Array(repeating: Node(count: 0, bytes: 0), count: capacity + 1)
        }
        for position in live..<sizeAt.count { sizeAt[position] = -1 }
        // Linear Fenwick construction: each node adds itself to its parent once.
        for i in nodes.indices {
            nodes[i] = i >= 1 && i <= live ? Node(count: 1, bytes: sizeAt[i - 1]) : Node(count: 0, bytes: 0)
        }
        for i in 1..<nodes.count {
            let parent = i + (i & -i)
            if parent < nodes.count {
                nodes[parent].count += nodes[i].count
                nodes[parent].bytes += nodes[i].bytes
            }
        }
        used = live
        totalCount = live
        totalBytes = sizeAt[0..<live].reduce(0, +)
    }
}
