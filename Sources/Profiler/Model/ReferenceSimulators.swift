/// The image-cache scenario's own strategies, which have no capacity: what they keep
/// follows who still holds an image (each lookup hands out one reference, each release
/// gives one back) and when the run loop goes idle.

/// `weak-cache`: an entry lives while anyone holds what a lookup returned, and goes with
/// its last user (a drop, not an eviction: the real cache emits none).
struct WeakSimulator: CacheSimulator {
    let sizes: [Int]
    var references: [Int]
    var residentBytes = 0
    let evictions = 0

    init(sizes: [Int]) {
        self.sizes = sizes
        references = Array(repeating: 0, count: sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        let k = Int(key)
        references[k] += 1
        if references[k] > 1 { return true }
        residentBytes += sizes[k]
        return false
    }

    mutating func release(_ key: Int32) {
        let k = Int(key)
        guard references[k] > 0 else { return }
        references[k] -= 1
        if references[k] == 0 { residentBytes -= sizes[k] }
    }
}

/// `strong-cache` (`unbounded`), and `sweep-cache` (`sweep`): every entry is kept; with
/// sweeping, each idle turn evicts the entries nobody but the cache holds.
struct KeepAllSimulator: CacheSimulator {
    let sizes: [Int]
    let sweeps: Bool
    var references: [Int]
    var resident: [Bool]
    var keys: [Int32] = []
    var residentBytes = 0
    var evictions = 0

    init(sizes: [Int], sweeps: Bool) {
        self.sizes = sizes
        self.sweeps = sweeps
        references = Array(repeating: 0, count: sizes.count)
        resident = Array(repeating: false, count: sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        let k = Int(key)
        references[k] += 1
        if resident[k] { return true }
        resident[k] = true
        keys.append(key)
        residentBytes += sizes[k]
        return false
    }

    mutating func release(_ key: Int32) {
        let k = Int(key)
        if references[k] > 0 { references[k] -= 1 }
    }

    /// Walks every entry, as the real sweep does.
    mutating func idle() {
        guard sweeps else { return }
        var kept: [Int32] = []
        for key in keys {
            let k = Int(key)
            if references[k] == 0 {
                resident[k] = false
                residentBytes -= sizes[k]
                evictions += 1
            } else {
                kept.append(key)
            }
        }
        keys = kept
    }
}

/// `no-cache` (`none`): every lookup builds a new entry and nothing is kept.
struct NoCacheSimulator: CacheSimulator {
    let evictions = 0
    let residentBytes = 0
    mutating func request(_ key: Int32) -> Bool { false }
}
