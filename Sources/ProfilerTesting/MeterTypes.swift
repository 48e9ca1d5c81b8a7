import CAllocationHooks
// A test's types are the rows a window's are (`AllocationFigures.objectTypes`): the type is
// ProfilerModel's, re-exported alone, so that `import ProfilerTesting` can name it.
@_exported import struct ProfilerModel.ObjectTypeCounts
import ProfilerRecording

/// What a task meter captured of its Swift objects: the rows a failure names, and the
/// objects per class metadata, what `.objectLimit(T.self, ...)` is compared by (a row's name
/// may stand for two private types).
struct MeterTypes {
    var rows: [ObjectTypeCounts] = []
    var objectsByClass: [UInt: UInt64] = [:]

    /// Open meter `id`'s types, named (names allocate: call outside the meter).
    static func read(_ id: UInt64) -> MeterTypes {
        var entries = [profctl_meter_type](repeating: profctl_meter_type(), count: Int(PROFCTL_METER_MAX_TYPES) + 1)
        let n = entries.withUnsafeMutableBufferPointer { profctl_meter_types(id, $0.baseAddress, UInt32($0.count)) }
        let read = entries.prefix(max(0, Int(n)))
        // Metadata 0: the meter's overflow entry, the types it had no room for.
        return MeterTypes(
            rows: ObjectTypeCounts.named(read.map {
                (metadata: UInt($0.metadata), objects: Int($0.objects), bytes: Int($0.requested_bytes),
                 liveObjects: Int($0.live_objects), liveBytes: Int($0.live_requested_bytes))
            }, other: 0),
            objectsByClass: Dictionary(read.map { (UInt($0.metadata), $0.objects) }, uniquingKeysWith: +))
    }

    /// A failure message's lines naming the types of the test's objects: the top
    /// ``MeterSite/shown`` by bytes, the rest summed, and the blocks no object claims, so
    /// that the lines add up to the test's allocations and bytes (empty when types were not
    /// captured).
    static func lines(_ figures: AllocationFigures) -> [String] {
        let types = figures.objectTypes
        guard !types.isEmpty || figures.objects > 0 else { return [] }
        var lines = ["  top types (by bytes allocated):"]
        func line(_ objects: Int, _ bytes: Int, _ live: Int, _ name: String) -> String {
            "    \(objects) objects, \(bytes) B, \(live) still live: \(name)"
        }
        lines += types.prefix(MeterSite.shown).map { line($0.objects, $0.bytes, $0.liveObjects, $0.name) }
        let rest = types.dropFirst(MeterSite.shown)
        if !rest.isEmpty {
            lines.append(line(rest.reduce(0) { $0 + $1.objects }, rest.reduce(0) { $0 + $1.bytes },
                              rest.reduce(0) { $0 + $1.liveObjects }, "\(rest.count) other types"))
        }
        if let remainder = ObjectTypeCounts.remainder(
            after: types, allocations: Int(clamping: figures.allocations), bytes: Int(clamping: figures.bytes),
            liveBlocks: Int(clamping: figures.retainedBlocks), liveBytes: Int(clamping: figures.retainedBytes)),
            remainder.objects > 0 {  // a line of blocks: none, no line (as the message always had it)
            lines.append("    \(remainder.objects) blocks, \(remainder.bytes) B, \(remainder.liveObjects) still live: \(remainder.name)")
        }
        return lines
    }
}
