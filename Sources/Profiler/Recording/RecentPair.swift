/// The two entries looked up last, for keys that come in long stretches of one or two at a
/// time (a lazy container's create and realize events alternate): comparing a key with
/// these two is cheaper than hashing it into a dictionary on every event.
struct RecentPair<Key: Equatable, Value> {
    private var last: (key: Key, value: Value)?
    private var beforeLast: (key: Key, value: Value)?

    /// The value remembered for `key`, if it is one of the two; the other becomes the older.
    mutating func value(for key: Key) -> Value? {
        if let last, last.key == key { return last.value }
        if let entry = beforeLast, entry.key == key {
            swap(&last, &beforeLast)
            return entry.value
        }
        return nil
    }

    /// Remembers `key` as the newest, and the newest so far as the older one.
    mutating func remember(_ key: Key, _ value: Value) {
        beforeLast = last
        last = (key, value)
    }
}
