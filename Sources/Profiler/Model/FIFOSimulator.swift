/// First in, first out: hits change nothing; room is made from the oldest insertion.
struct FIFOSimulator: BoundedSimulator {
    var room: Occupancy
    var order: KeyList

    init(room: Occupancy) {
        self.room = room
        order = KeyList(keys: room.sizes.count)
    }

    mutating func request(_ key: Int32) -> Bool {
        if order.contains(key) { return true }
        room.admitEvictingOldest(key, from: &order)
        return false
    }
}
