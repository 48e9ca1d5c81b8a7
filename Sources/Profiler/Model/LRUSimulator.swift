/// Least recently used: a hit moves the entry to the front; room is made from the back.
struct LRUSimulator: BoundedSimulator {
    var room: Occupancy
    var order: KeyList

    init(room: Occupancy) {
        self.room = room
        order = KeyList(keys: room.sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        if order.contains(key) {
            order.moveToNewest(key)
            return true
        }
        room.admitEvictingOldest(key, from: &order)
        return false
    }
}
