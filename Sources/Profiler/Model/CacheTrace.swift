/// One cache's request trace, in the order the run made it: every lookup (a hit, or a
/// miss that built an entry of known bytes), every user letting go of what a lookup
/// returned, every entry the cache dropped, and every idle turn of the run loop.
///
/// Keys are dense integers (`keyNames` spells them) so a replay indexes arrays instead
/// of hashing strings; the trace is two arrays of one element per operation.
package struct CacheTrace: Sendable, Equatable {
    package enum Operation: UInt8, Sendable {
        /// A lookup the cache answered from what it held.
        case hit
        /// A lookup that built the entry (its bytes are the key's size).
        case miss
        /// A user let go of what one lookup of the key returned.
        case release
        /// The cache dropped the key's entry.
        case evict
        /// The run loop went idle (a sweeping cache sweeps); its key is -1.
        case idle

        package var isRequest: Bool { self == .hit || self == .miss }

        /// The operation an event kind stands for (`hit`, `miss`, `release`, `evict`, `idle`);
        /// nil for the kinds a trace leaves out (`create`, `realize`).
        package init?(eventKind: String) {
            switch eventKind {
            case "hit": self = .hit
            case "miss": self = .miss
            case "release": self = .release
            case "evict": self = .evict
            case "idle": self = .idle
            default: return nil
            }
        }
    }

    package private(set) var operations: [Operation] = []
    /// The key of each operation (-1 for an idle turn).
    package private(set) var keys: [Int32] = []
    /// The key names, by key.
    package private(set) var keyNames: [String] = []
    /// Bytes of each key's entry: what its first miss built (0 until it missed).
    package private(set) var sizes: [Int] = []
    /// Lookups in the trace.
    package private(set) var requests = 0
    private var index: [String: Int32] = [:]

    package init() {}

    /// The key's number, made on first sight.
    package mutating func key(_ name: String) -> Int32 {
        if let known = index[name] { return known }
        let key = Int32(keyNames.count)
        index[name] = key
        keyNames.append(name)
        sizes.append(0)
        return key
    }

    /// Appends one operation; a miss's `bytes` become the key's size the first time.
    package mutating func append(_ operation: Operation, key: Int32, bytes: Int = 0) {
        operations.append(operation)
        keys.append(key)
        if operation.isRequest { requests += 1 }
        if operation == .miss, sizes[Int(key)] == 0 { sizes[Int(key)] = max(0, bytes) }
    }

    /// Appends an operation by key name.
    package mutating func append(_ operation: Operation, name: String, bytes: Int = 0) {
        if operation == .idle { return appendIdle() }
        append(operation, key: key(name), bytes: bytes)
    }

    package mutating func appendIdle() {
        operations.append(.idle)
        keys.append(-1)
    }

    /// Room for `count` operations, for traces whose length is known.
    package mutating func reserveCapacity(_ count: Int) {
        operations.reserveCapacity(count)
        keys.reserveCapacity(count)
    }

    /// Sets a key's size outright (synthetic traces, whose keys never missed in a run).
    package mutating func setSize(_ bytes: Int, of key: Int32) { sizes[Int(key)] = bytes }

    package var distinctKeys: Int { keyNames.count }
    /// Bytes of every key's entry together: the capacity at which nothing is ever evicted.
    package var totalBytes: Int { sizes.reduce(0, +) }
    /// What the run recorded, counted from the trace itself.
    package var recordedHits: Int { operations.lazy.filter { $0 == .hit }.count }
    package var recordedMisses: Int { operations.lazy.filter { $0 == .miss }.count }
    package var recordedEvictions: Int { operations.lazy.filter { $0 == .evict }.count }
}
