import CAllocationHooks
import ProfilerModel
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

    /// The name of the line for the test's blocks that are no Swift object (`record --types`'
    /// remainder row).
    static let remainder = ObjectTypeName.remainder

    /// A failure message's lines naming the types of the test's objects: the top
    /// ``MeterSite/shown`` by bytes, the rest summed, and the blocks no object claims, so
    /// that the lines add up to the test's allocations and bytes (empty when types were not
    /// captured).
    static func lines(_ figures: AllocationFigures) -> [String] {
        let types = figures.objectTypes
        guard !types.isEmpty || figures.objects > 0 else { return [] }
        var lines = ["  top types (by bytes allocated):"]
        func line(_ objects: UInt64, _ bytes: UInt64, _ live: UInt64, _ name: String) -> String {
            "    \(objects) objects, \(bytes) B, \(live) still live: \(name)"
        }
        lines += types.prefix(MeterSite.shown).map { line($0.objects, $0.bytes, $0.liveObjects, $0.name) }
        let rest = types.dropFirst(MeterSite.shown)
        if !rest.isEmpty {
            lines.append(line(rest.reduce(0) { $0 + $1.objects }, rest.reduce(0) { $0 + $1.bytes },
                              rest.reduce(0) { $0 + $1.liveObjects }, "\(rest.count) other types"))
        }
        // What no object claims: the test's own figures less the objects'. Subtracted with
        // care: a block the meter could not keep is counted, never freed (allocation_meters.h).
        let objects = types.reduce(0) { $0 + $1.objects }, bytes = types.reduce(0) { $0 + $1.bytes }
        let live = types.reduce(0) { $0 + $1.liveObjects }
        let blocks = figures.allocations > objects ? figures.allocations - objects : 0
        if blocks > 0 {
            let liveBlocks = figures.retainedBlocks > live ? figures.retainedBlocks - live : 0
            lines.append("    \(blocks) blocks, \(figures.bytes > bytes ? figures.bytes - bytes : 0) B, \(liveBlocks) still live: "
                + remainder)
        }
        return lines
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
