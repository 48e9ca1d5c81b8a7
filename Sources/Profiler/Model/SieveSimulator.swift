/// SIEVE (Zhang et al., "SIEVE is Simpler than LRU", NSDI 2024): a FIFO queue with a
/// visited bit per entry and a hand that moves from the oldest entry towards the newest.
/// A hit only sets the bit; to make room the hand clears set bits as it passes and evicts
/// the first entry whose bit is clear, then stays there for the next eviction.
struct SieveSimulator: BoundedSimulator {
    var room: Occupancy
    var order: KeyList
    var visited: [Bool]
    /// Where the next eviction starts looking; nil: at the oldest entry.
    var hand: Int32?

    init(room: Occupancy) {
        self.room = room
        order = KeyList(keys: room.sizes.count)
        visited = Array(repeating: false, count: room.sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        if order.contains(key) {
            visited[Int(key)] = true
            return true
        }
        while room.needsRoom(for: key), order.count > 0 { evictOne() }
        if room.fits(key) {
            order.pushNewest(key)
            visited[Int(key)] = false
            room.admit(key)
        }
        return false
    }

    private mutating func evictOne() {
        guard var node = hand ?? order.oldest else { return }
        while visited[Int(node)] {
            visited[Int(node)] = false
            guard let step = order.newer(than: node) ?? order.oldest else { return }
            node = step
        }
        hand = order.newer(than: node)
        order.remove(node)
        room.evict(node)
    }
}
