import ProfilerHooks
import ProfilerRecording

/// A least-recently-used cache for your own values, instrumented like the image caches:
/// every lookup emits `hit` or `miss` (a miss with the bytes its `build` allocated, which
/// are the entry's size), every entry it drops to make room emits `evict`, and `idle()`
/// marks the run loop's idle turns. The component of each event is the key, so a recorded
/// run is a request trace that `profctl whatif` replays at other capacities and policies,
/// and `--check-replay` reproduces exactly (as `lru` at the same capacity).
///
/// Room is made the way the replay makes it: on a miss, the least recently used entries
/// go until the new one fits; an entry larger than the whole capacity is not kept.
/// Not thread-safe: use one from one thread, or guard it.
package final class MeasuredCache<Value> {
    /// How much the cache may hold: the bytes its entries' builds allocated, or how many
    /// entries; at least 1.
    package enum Limit: Sendable, Equatable {
        case bytes(Int), entries(Int)
    }

    private final class Node {
        let key: String
        let value: Value
        let bytes: Int
        var newer: Node?
        weak var older: Node?
        init(key: String, value: Value, bytes: Int) {
            self.key = key
            self.value = value
            self.bytes = bytes
        }
    }

    package let limit: Limit
    private var entries: [String: Node] = [:]
    /// Most recently used first.
    private var newest: Node?
    private var oldest: Node?
    private var used = 0
    /// Bytes of the entries held now (what their builds allocated).
    package private(set) var residentBytes = 0

    package init(limit: Limit) { self.limit = limit }

    package var count: Int { entries.count }

    /// The value for `key`: from the cache (a `hit`), or built, kept and measured (a `miss`).
    package func value(forKey key: String, probe: Probe, build: () throws -> Value) throws -> Value {
        let keyed = probe.component(key)
        if let node = entries[key] {
            let measured = try AllocationScope.measure { () -> Value in
                moveToNewest(node)
                return node.value
            }
            try keyed.emit(.hit, measured)
            return measured.value
        }
        let built = try AllocationScope.measure(build)
        try keyed.emit(.miss, built)
        let bytes = max(0, built.allocations.netLiveBytes)
        let weight = weight(bytes)
        while used > 0 && used + weight > capacity, let victim = oldest {
            try probe.component(victim.key).measure(.evict) { remove(victim) }
        }
        if weight <= capacity {
            let node = Node(key: key, value: built.value, bytes: bytes)
            entries[key] = node
            pushNewest(node)
            used += weight
            residentBytes += bytes
        }
        return built.value
    }

    /// The run loop went idle: marked in the trace (this cache keeps its entries).
    package func idle(probe: Probe) throws {
        try probe.component("cache").measure(.idle) {}
    }

    private var capacity: Int {
        switch limit {
        case .bytes(let n), .entries(let n): max(1, n)
        }
    }

    private func weight(_ bytes: Int) -> Int {
        if case .entries = limit { return 1 }
        return bytes
    }

    private func pushNewest(_ node: Node) {
        node.newer = nil
        node.older = nil
        if let newest {
            newest.newer = node
            node.older = newest
        } else {
            oldest = node
        }
        newest = node
    }

    private func unlink(_ node: Node) {
        let newer = node.newer, older = node.older
        if let older { older.newer = newer } else { oldest = newer }
        if let newer { newer.older = older } else { newest = older }
        node.newer = nil
        node.older = nil
    }

    private func moveToNewest(_ node: Node) {
        guard newest !== node else { return }
        unlink(node)
        pushNewest(node)
    }

    private func remove(_ node: Node) {
        unlink(node)
        entries[node.key] = nil
        used -= weight(node.bytes)
        residentBytes -= node.bytes
    }
}
