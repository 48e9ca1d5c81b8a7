/// Least frequently used: room is made by evicting the entry with the fewest lookups
/// since it came in, the least recently used of those on a tie. Counts are forgotten
/// with the entry. A binary heap of (count, last use) with stale entries skipped when
/// popped: O(log n) a lookup.
struct LFUSimulator: BoundedSimulator {
    var room: Occupancy
    var resident: [Bool]
    var count: [Int]
    var lastUse: [Int]
    var heap = MinHeap()
    var tick = 0
    var residentCount = 0

    init(room: Occupancy) {
        self.room = room
        resident = Array(repeating: false, count: room.sizes.count)
        count = Array(repeating: 0, count: room.sizes.count)
        lastUse = Array(repeating: 0, count: room.sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        tick += 1
        let k = Int(key)
        if resident[k] {
            count[k] += 1
            lastUse[k] = tick
            heap.push(.init(count: count[k], tick: tick, key: key))
            compactIfStale()
            return true
        }
        while room.needsRoom(for: key), residentCount > 0 { evictOne() }
        if room.fits(key) {
            resident[k] = true
            residentCount += 1
            count[k] = 1
            lastUse[k] = tick
            heap.push(.init(count: 1, tick: tick, key: key))
            room.admit(key)
        }
        return false
    }

    private mutating func evictOne() {
        while let top = heap.pop() {
            let k = Int(top.key)
            guard resident[k], count[k] == top.count, lastUse[k] == top.tick else { continue }
            resident[k] = false
            residentCount -= 1
            room.evict(top.key)
            return
        }
    }

    /// Rebuilds the heap from the live entries when stale ones outnumber them: memory stays
    /// proportional to what the cache holds, not to the trace.
    private mutating func compactIfStale() {
        guard heap.count > 2 * residentCount + 1024 else { return }
        var fresh = MinHeap()
        for k in resident.indices where resident[k] {
            fresh.push(.init(count: count[k], tick: lastUse[k], key: Int32(k)))
        }
        heap = fresh
    }
}

/// A binary min-heap of LFU candidates, ordered by count, then by last use.
struct MinHeap {
    struct Item {
        let count: Int
        let tick: Int
        let key: Int32
        func before(_ other: Item) -> Bool { count != other.count ? count < other.count : tick < other.tick }
    }

    private var items: [Item] = []
    var count: Int { items.count }

    mutating func push(_ item: Item) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].before(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Item? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].before(items[smallest]) { smallest = left }
            if right < items.count, items[right].before(items[smallest]) { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
