/// Least recently used: a hit moves the entry to the front; room is made from the back.
struct LRUSimulator: CacheSimulator {
    var room: Occupancy
    var order: KeyList

    init(sizes: [Int], capacity: Int, unit: CapacityUnit) {
        room = Occupancy(sizes: sizes, capacity: capacity, unit: unit)
        order = KeyList(keys: sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        if order.contains(key) {
            order.moveToNewest(key)
            return true
        }
        while room.needsRoom(for: key), let victim = order.popOldest() { room.evict(victim) }
        if room.fits(key) {
            order.pushNewest(key)
            room.admit(key)
        }
        return false
    }

    var evictions: Int { room.evictions }
    var residentBytes: Int { room.residentBytes }
}
