/// One Swift type's share of a measured stretch: the objects `swift_allocObject` made with
/// it, their requested bytes, and how many of them (and their bytes) were still live when
/// it ended. Both a window's types (``TypedMeasured/types``, `AllocationWindow.measureTypes`)
/// and a test's (ProfilerTesting's `AllocationFigures.objectTypes`) are these rows. The row
/// named ``remainder`` holds the blocks no object claims (array and string buffers
/// allocated by malloc directly, C buffers), so that the rows add up to the stretch's
/// allocations and requested bytes.
public struct ObjectTypeCounts: Sendable, Equatable, CustomStringConvertible {
    /// The type, module-qualified with its generic arguments (`Swift._ContiguousArrayStorage<Swift.Int>`),
    /// named as `record --types` names it; heap objects that are no type of the program by
    /// their kind (`(closure context or box)`).
    public let name: String
    public let objects: Int
    public let bytes: Int
    public let liveObjects: Int
    public let liveBytes: Int

    /// The name of the row of blocks no object claims: also the name `record --types` stores
    /// for them, and the `types` view's `remainder` row.
    public static let remainder = "(not a Swift object)"
    /// The name of the row that sums the types the hooks had no room to keep apart.
    package static let otherTypes = "(other types)"

    public var isRemainder: Bool { name == Self.remainder }

    public init(name: String, objects: Int, bytes: Int, liveObjects: Int, liveBytes: Int) {
        self.name = name
        self.objects = objects
        self.bytes = bytes
        self.liveObjects = liveObjects
        self.liveBytes = liveBytes
    }

    public var description: String {
        "\(objects) objects, \(bytes) B, \(liveObjects) still live (\(liveBytes) B): \(name)"
    }

    /// The ``remainder`` row of a stretch whose own figures are `allocations` blocks of
    /// `bytes`, `liveBlocks` of them (`liveBytes`) still live, and whose objects are `types`:
    /// its figures less the objects', nil when the objects account for all of them. Never
    /// below 0: a task meter counts a block it could not keep as live for good
    /// (allocation_meters.h), so its objects may claim more live blocks than it has.
    package static func remainder(after types: [ObjectTypeCounts], allocations: Int, bytes: Int, liveBlocks: Int,
                                 liveBytes: Int) -> ObjectTypeCounts? {
        func left(_ total: Int, _ figure: KeyPath<ObjectTypeCounts, Int>) -> Int {
            max(0, total - types.reduce(0) { $0 + $1[keyPath: figure] })
        }
        let row = ObjectTypeCounts(name: Self.remainder, objects: left(allocations, \.objects), bytes: left(bytes, \.bytes),
                                   liveObjects: left(liveBlocks, \.liveObjects), liveBytes: left(liveBytes, \.liveBytes))
        return row.objects == 0 && row.bytes == 0 && row.liveObjects == 0 && row.liveBytes == 0 ? nil : row
    }
}
