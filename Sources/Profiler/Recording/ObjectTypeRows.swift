import ProfilerModel

extension ObjectTypeCounts {
    /// One entry of the hooks' per-type table (a window's or a task meter's): a metadata's figures.
    package typealias Entry = (metadata: UInt, objects: Int, bytes: Int, liveObjects: Int, liveBytes: Int)

    /// The hooks' entries as rows, most bytes first (ties: more objects, then by name). Named
    /// here, after the measured code ended (a first name allocates); the entry whose metadata
    /// is `other`, where the hooks sum the types they had no room for, as ``otherTypes``. Two
    /// metadata that share a name (a private type's address normalised away) are one row, as
    /// `record --types` stores them.
    package static func named(_ entries: some Sequence<Entry>, other: UInt) -> [ObjectTypeCounts] {
        var byName: [String: (objects: Int, bytes: Int, liveObjects: Int, liveBytes: Int)] = [:]
        for e in entries {
            let name = e.metadata == other ? otherTypes : TypeName.resolve(metadata: e.metadata)
            var row = byName[name] ?? (0, 0, 0, 0)
            row.objects += e.objects
            row.bytes += e.bytes
            row.liveObjects += e.liveObjects
            row.liveBytes += e.liveBytes
            byName[name] = row
        }
        return byName.map {
            ObjectTypeCounts(name: $0.key, objects: $0.value.objects, bytes: $0.value.bytes,
                             liveObjects: $0.value.liveObjects, liveBytes: $0.value.liveBytes)
        }.sorted { ($0.bytes, $0.objects, $1.name) > ($1.bytes, $1.objects, $0.name) }
    }
}
