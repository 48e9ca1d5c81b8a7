/// A doubly linked list of dense integer keys held in two arrays (no node objects, no
/// hashing): the recency and insertion orders of the cache simulators. The head is the
/// newest end, the tail the oldest.
struct KeyList {
    private static let none: Int32 = -1
    private var next: [Int32]
    private var previous: [Int32]
    private var member: [Bool]
    private(set) var head: Int32 = KeyList.none
    private(set) var tail: Int32 = KeyList.none
    private(set) var count = 0

    init(keys: Int) {
        next = Array(repeating: Self.none, count: keys)
        previous = Array(repeating: Self.none, count: keys)
        member = Array(repeating: false, count: keys)
    }

    func contains(_ key: Int32) -> Bool { member[Int(key)] }

    /// The key nearer the head (newer), or nil at the head.
    func newer(than key: Int32) -> Int32? {
        let p = previous[Int(key)]
        return p == Self.none ? nil : p
    }

    var oldest: Int32? { tail == Self.none ? nil : tail }

    mutating func pushNewest(_ key: Int32) {
        let k = Int(key)
        member[k] = true
        previous[k] = Self.none
        next[k] = head
        if head != Self.none { previous[Int(head)] = key } else { tail = key }
        head = key
        count += 1
    }

    mutating func remove(_ key: Int32) {
        let k = Int(key)
        guard member[k] else { return }
        let p = previous[k], n = next[k]
        if p != Self.none { next[Int(p)] = n } else { head = n }
        if n != Self.none { previous[Int(n)] = p } else { tail = p }
        member[k] = false
        count -= 1
    }

    mutating func moveToNewest(_ key: Int32) {
        guard head != key else { return }
        remove(key)
        pushNewest(key)
    }

    mutating func popOldest() -> Int32? {
        guard tail != Self.none else { return nil }
        let key = tail
        remove(key)
        return key
    }
}
