/// The caching policies `profctl whatif` replays a trace through: the classic bounded
/// ones at a capacity, and the image-cache scenario's own strategies, which have none.
package enum CachePolicy: String, Sendable, CaseIterable {
    case lru, fifo, lfu, twoQ = "2q", sieve
    case weak, sweep, unbounded, none

    /// Whether the policy is replayed at a capacity (the others keep what their users hold).
    package var takesCapacity: Bool {
        switch self {
        case .lru, .fifo, .lfu, .twoQ, .sieve: true
        case .weak, .sweep, .unbounded, .none: false
        }
    }

    /// One line for help and docs.
    package var summary: String {
        switch self {
        case .lru: "least recently used (exact at every capacity from stack distances)"
        case .fifo: "first in, first out"
        case .lfu: "least frequently used, least recently used on a tie"
        case .twoQ: "2Q: a FIFO for first lookups, a ghost list, an LRU for the rest"
        case .sieve: "SIEVE (NSDI 2024): FIFO with a visited bit and a moving hand"
        case .weak: "weak-cache: an entry lives while someone holds it"
        case .sweep: "sweep-cache: keeps everything, sweeps unheld entries when idle"
        case .unbounded: "strong-cache: keeps everything for ever"
        case .none: "no-cache: keeps nothing"
        }
    }

    package static var names: [String] { allCases.map(\.rawValue) }

    /// Replays the trace through this policy; `capacity` is ignored by policies that take none.
    package func replay(_ trace: CacheTrace, capacity: Int = .max, unit: CapacityUnit = .bytes) -> ReplayResult {
        let sizes = trace.sizes
        switch self {
        case .lru: return LRUSimulator.replay(trace, capacity: capacity, unit: unit)
        case .fifo: return FIFOSimulator.replay(trace, capacity: capacity, unit: unit)
        case .lfu: return LFUSimulator.replay(trace, capacity: capacity, unit: unit)
        case .twoQ: return TwoQSimulator.replay(trace, capacity: capacity, unit: unit)
        case .sieve: return SieveSimulator.replay(trace, capacity: capacity, unit: unit)
        case .weak: var s = WeakSimulator(sizes: sizes); return runReplay(trace, through: &s)
        case .sweep: var s = KeepAllSimulator(sizes: sizes, sweeps: true); return runReplay(trace, through: &s)
        case .unbounded: var s = KeepAllSimulator(sizes: sizes, sweeps: false); return runReplay(trace, through: &s)
        case .none: var s = NoCacheSimulator(); return runReplay(trace, through: &s)
        }
    }
}

