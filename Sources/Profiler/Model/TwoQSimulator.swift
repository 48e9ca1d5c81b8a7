/// 2Q (Johnson and Shasha, VLDB 1994; the "full" version): a first lookup goes into a
/// FIFO (A1in, a quarter of the capacity); an entry evicted from it is remembered, key
/// only, in a ghost FIFO (A1out, keys worth half the capacity); a miss on a remembered key
/// goes into the main LRU (Am). A hit in A1in changes nothing, so one-off scans never
/// reach Am.
struct TwoQSimulator: BoundedSimulator {
    var room: Occupancy
    var recent: KeyList
    var ghost: KeyList
    var main: KeyList
    var recentUsed = 0
    var ghostUsed = 0
    let recentLimit: Int
    let ghostLimit: Int

    init(room: Occupancy) {
        self.room = room
        recent = KeyList(keys: room.sizes.count)
        ghost = KeyList(keys: room.sizes.count)
        main = KeyList(keys: room.sizes.count)
        recentLimit = max(1, room.capacity / 4)
        ghostLimit = max(1, room.capacity / 2)
    }

    mutating func request(_ key: Int32) -> Bool {
        if main.contains(key) {
            main.moveToNewest(key)
            return true
        }
        if recent.contains(key) { return true }
        let remembered = ghost.contains(key)
        if remembered {
            ghost.remove(key)
            ghostUsed -= room.weight(key)
        }
        while room.needsRoom(for: key), recent.count + main.count > 0 { reclaim() }
        guard room.fits(key) else { return false }
        if remembered {
            main.pushNewest(key)
        } else {
            recent.pushNewest(key)
            recentUsed += room.weight(key)
        }
        room.admit(key)
        return false
    }

    private mutating func reclaim() {
        if recentUsed > recentLimit || main.count == 0, let victim = recent.popOldest() {
            recentUsed -= room.weight(victim)
            room.evict(victim)
            ghost.pushNewest(victim)
            ghostUsed += room.weight(victim)
            while ghostUsed > ghostLimit, let forgotten = ghost.popOldest() { ghostUsed -= room.weight(forgotten) }
        } else if let victim = main.popOldest() {
            room.evict(victim)
        }
    }
}
