/// A limit on the Swift objects of one class a test allocates (`.objectLimit(T.self, count:)`).
public struct ObjectLimit: Sendable, Equatable {
    /// The class, as its metadata address: what swift_allocObject receives for its objects.
    let metadata: UInt
    /// Its name in failure messages (`Inventory.Receipt`).
    public let typeName: String
    /// Objects allocated at most (freed or not).
    public var count: UInt64

    public init<T: AnyObject>(_ type: T.Type, count: UInt64) {
        metadata = UInt(bitPattern: ObjectIdentifier(type))
        typeName = String(reflecting: type)
        self.count = count
    }

    /// The objects of this class in `figures`; nil when they cannot be told: the meter had no
    /// room left for the class (PROFCTL_METER_MAX_TYPES types), and summed its objects with
    /// other types' in its overflow entry (metadata 0), so a count of 0 would pass unchecked.
    func measured(in figures: AllocationFigures) -> UInt64? {
        if let objects = figures.objectsByClass[metadata] { return objects }
        return (figures.objectsByClass[0] ?? 0) > 0 ? nil : 0
    }
}
