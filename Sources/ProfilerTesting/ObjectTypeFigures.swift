import CAllocationHooks
import ProfilerRecording

/// One Swift type's objects in a measured stretch: how many swift_allocObject made (on the
/// heap; objects the compiler put on the stack never reach it), their requested bytes, and
/// how many were still live when it ended.
public struct ObjectTypeFigures: Sendable, Equatable {
    /// The type, module-qualified (`Inventory.Receipt`), as `record --types` names it.
    public var name: String
    public var objects: UInt64
    public var bytes: UInt64
    public var liveObjects: UInt64
    /// The type's metadata address: what `.objectLimit(T.self, ...)` is compared by.
    let metadata: UInt

    public init(name: String, objects: UInt64, bytes: UInt64, liveObjects: UInt64) {
        self.init(name: name, objects: objects, bytes: bytes, liveObjects: liveObjects, metadata: 0)
    }

    init(name: String, objects: UInt64, bytes: UInt64, liveObjects: UInt64, metadata: UInt) {
        self.name = name
        self.objects = objects
        self.bytes = bytes
        self.liveObjects = liveObjects
        self.metadata = metadata
    }

    /// Open meter `id`'s types, most bytes first, named (names allocate: call outside the meter).
    static func read(_ id: UInt64) -> [ObjectTypeFigures] {
        var entries = [profctl_meter_type](repeating: profctl_meter_type(), count: Int(PROFCTL_METER_MAX_TYPES) + 1)
        let n = entries.withUnsafeMutableBufferPointer { profctl_meter_types(id, $0.baseAddress, UInt32($0.count)) }
        guard n > 0 else { return [] }
        return entries.prefix(Int(n)).map { e in
            ObjectTypeFigures(name: e.metadata == 0 ? "(other types)" : TypeName.resolve(metadata: UInt(e.metadata)),
                              objects: e.objects, bytes: e.requested_bytes, liveObjects: e.live_objects,
                              metadata: UInt(e.metadata))
        }.sorted { ($0.bytes, $0.objects, $1.name) > ($1.bytes, $1.objects, $0.name) }
    }
}
