import ProfilerModel

/// One type's change between run A and run B, matched by (component, strategy, kind, type
/// name): names, not metadata addresses, so two builds compare. Per instance, so runs of
/// different instance counts compare too.
package struct TypeDifference: Sendable, Equatable {
    package let component: String
    package let strategy: String
    package let kind: String
    package let type: String
    package let change: SiteChange
    package let before: TypeRow?
    package let after: TypeRow?

    package var objectsPerInstanceA: Double { before?.objectsPerInstance ?? 0 }
    package var objectsPerInstanceB: Double { after?.objectsPerInstance ?? 0 }
    /// Live requested bytes, B minus A.
    package var deltaLiveBytes: Int { (after?.counts.liveRequestedBytes ?? 0) - (before?.counts.liveRequestedBytes ?? 0) }
}

/// The types whose objects per instance grew, shrank, appeared or vanished from one run to another.
package enum TypeDiff {
    struct Key: Hashable, Comparable {
        let component, strategy, kind, type: String
        static func < (a: Key, b: Key) -> Bool {
            (a.component, a.strategy, a.kind, a.type) < (b.component, b.strategy, b.kind, b.type)
        }
    }

    /// Every type whose objects per instance or requested bytes per instance differ, in
    /// key order. A type present in one run only appeared or vanished.
    package static func compare(_ a: [TypeRow], _ b: [TypeRow]) -> [TypeDifference] {
        func keyed(_ rows: [TypeRow]) -> [Key: TypeRow] {
            Dictionary(rows.map { (Key(component: $0.component, strategy: $0.strategy, kind: $0.kind, type: $0.type), $0) },
                       uniquingKeysWith: { first, _ in first })
        }
        let before = keyed(a), after = keyed(b)
        func bytesPerInstance(_ r: TypeRow) -> Double { r.instances > 0 ? Double(r.counts.requestedBytes) / Double(r.instances) : 0 }
        var result: [TypeDifference] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            let x = before[key], y = after[key]
            let change: SiteChange
            switch (x, y) {
            case (nil, _?): change = .appeared
            case (_?, nil): change = .vanished
            case (let x?, let y?):
                if x.objectsPerInstance == y.objectsPerInstance && bytesPerInstance(x) == bytesPerInstance(y) { continue }
                change = y.objectsPerInstance > x.objectsPerInstance
                    || (y.objectsPerInstance == x.objectsPerInstance && bytesPerInstance(y) > bytesPerInstance(x)) ? .grew : .shrank
            default: continue
            }
            result.append(TypeDifference(component: key.component, strategy: key.strategy, kind: key.kind, type: key.type,
                                         change: change, before: x, after: y))
        }
        return result
    }

    /// The differences as a table.
    package static func table(_ differences: [TypeDifference]) -> ResultTable {
        ResultTable(
            columns: ["component", "strategy", "kind", "type", "change", "objects_per_instance_a", "objects_per_instance_b",
                      "objects_a", "objects_b", "live_bytes_a", "live_bytes_b", "delta_live_bytes"],
            rows: differences.map { d in
                [.text(d.component), .text(d.strategy), .text(d.kind), .text(d.type), .text(d.change.rawValue),
                 .real(d.objectsPerInstanceA), .real(d.objectsPerInstanceB),
                 .init(d.before?.counts.objects ?? 0), .init(d.after?.counts.objects ?? 0),
                 .init(d.before?.counts.liveRequestedBytes ?? 0), .init(d.after?.counts.liveRequestedBytes ?? 0),
                 .init(d.deltaLiveBytes)]
            })
    }
}
