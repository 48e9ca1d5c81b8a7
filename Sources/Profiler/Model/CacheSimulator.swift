/// What a capacity is counted in: the bytes of the entries, or how many there are.
package enum CapacityUnit: String, Sendable, CaseIterable {
    case bytes, entries
}

/// A simulated cache the replay drives, one trace operation at a time. Keys are the
/// trace's dense integers; a simulator knows every key's size up front.
protocol CacheSimulator {
    /// A lookup: whether the cache held the key. On a miss it keeps the new entry (or not)
    /// and evicts as its policy says.
    mutating func request(_ key: Int32) -> Bool
    /// A user let go of what one lookup of the key returned.
    mutating func release(_ key: Int32)
    /// The run loop went idle.
    mutating func idle()
    var evictions: Int { get }
    /// Bytes of the entries the cache holds now.
    var residentBytes: Int { get }
}

extension CacheSimulator {
    mutating func release(_ key: Int32) {}
    mutating func idle() {}
}

/// What a replay of a trace through one simulated cache gave.
package struct ReplayResult: Sendable, Equatable {
    package var hits = 0
    package var misses = 0
    package var evictions = 0
    /// The most bytes the cache held at any time.
    package var peakResidentBytes = 0
    /// The bytes it held when the trace ended.
    package var endResidentBytes = 0
    /// Lookups whose hit or miss differs from the recorded one, and the first of them
    /// (0-based among the lookups).
    package var mismatches = 0
    package var firstMismatch: Int?

    package init() {}

    package var requests: Int { hits + misses }
    package var hitRatio: Double { requests == 0 ? 0 : Double(hits) / Double(requests) }
}

/// The room a capacity-bound simulator has and what it holds: evicting until a new entry
/// fits, the same way for every policy. An entry larger than the whole capacity is not
/// kept, and making room for it empties the cache (as in Mattson's stack model, so LRU's
/// replay and its stack distances agree at every capacity).
struct Occupancy {
    let sizes: [Int]
    let byEntries: Bool
    let capacity: Int
    private(set) var used = 0
    private(set) var residentBytes = 0
    private(set) var evictions = 0

    init(sizes: [Int], capacity: Int, unit: CapacityUnit) {
        self.sizes = sizes
        self.capacity = capacity
        self.byEntries = unit == .entries
    }

    @inline(__always) func weight(_ key: Int32) -> Int { byEntries ? 1 : sizes[Int(key)] }

    /// Whether `key` would fit once `used` has room: false for an entry larger than the capacity.
    @inline(__always) func fits(_ key: Int32) -> Bool { weight(key) <= capacity }

    /// Whether there is no room for `key` yet (evict one more, if anything is left).
    @inline(__always) func needsRoom(for key: Int32) -> Bool { used > 0 && used + weight(key) > capacity }

    mutating func admit(_ key: Int32) {
        used += weight(key)
        residentBytes += sizes[Int(key)]
    }

    mutating func evict(_ key: Int32) {
        used -= weight(key)
        residentBytes -= sizes[Int(key)]
        evictions += 1
    }

    /// A miss where entries leave in one queue's order (FIFO, LRU): the oldest go until
    /// `key` fits, then it comes in as the newest, unless it is larger than the capacity.
    @inline(__always) mutating func admitEvictingOldest(_ key: Int32, from order: inout KeyList) {
        while needsRoom(for: key), let victim = order.popOldest() { evict(victim) }
        if fits(key) {
            order.pushNewest(key)
            admit(key)
        }
    }
}

/// A simulator bounded by a capacity (LRU, FIFO, LFU, 2Q, SIEVE): built from its room
/// alone, which also keeps what it holds, so its evictions and resident bytes are read
/// there and its replay is set up the same way for every policy.
protocol BoundedSimulator: CacheSimulator {
    var room: Occupancy { get }
    /// An empty cache with this room; its key tables sized for `room.sizes`.
    init(room: Occupancy)
}

extension BoundedSimulator {
    var evictions: Int { room.evictions }
    var residentBytes: Int { room.residentBytes }

    /// Replays the trace through an empty cache of this policy at `capacity`.
    static func replay(_ trace: CacheTrace, capacity: Int, unit: CapacityUnit) -> ReplayResult {
        var simulator = Self(room: Occupancy(sizes: trace.sizes, capacity: capacity, unit: unit))
        return runReplay(trace, through: &simulator)
    }
}

/// Replays a trace through a simulator: its lookups, releases and idle turns (the
/// recorded evictions are the run's output, not its input).
func runReplay<S: CacheSimulator>(_ trace: CacheTrace, through simulator: inout S) -> ReplayResult {
    var result = ReplayResult()
    var lookup = 0
    for (operation, key) in zip(trace.operations, trace.keys) {
        switch operation {
        case .hit, .miss:
            let hit = simulator.request(key)
            if hit { result.hits += 1 } else { result.misses += 1 }
            if hit != (operation == .hit) {
                result.mismatches += 1
                if result.firstMismatch == nil { result.firstMismatch = lookup }
            }
            lookup += 1
            result.peakResidentBytes = max(result.peakResidentBytes, simulator.residentBytes)
        case .release: simulator.release(key)
        case .idle: simulator.idle()
        case .evict: break
        }
    }
    result.evictions = simulator.evictions
    result.endResidentBytes = simulator.residentBytes
    return result
}
