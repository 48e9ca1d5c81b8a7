/// The types of one (component, strategy, kind) of a run as a report shows them: its
/// largest types, the rest folded into one row, the remainder (blocks no object claims)
/// and the total, so that what is shown adds up to the instances' allocations exactly
/// however many types are left out.
package struct TypeGroup: Sendable, Equatable {
    package let component: String
    package let strategy: String
    package let kind: String
    /// The measured instances (events) the counts are summed over.
    package let instances: Int
    /// The types with the most requested bytes, most first (ties: more objects, then by name).
    package let top: [TypeRow]
    /// How many further types `others` sums (0: none left out).
    package let otherTypes: Int
    package let others: TypeCounts
    /// The `(not a Swift object)` row, nil when every block was an object.
    package let remainder: TypeCounts?
    /// Every row's counts: the instances' allocations and requested bytes.
    package let total: TypeCounts

    /// `count` per measured instance; nil without instances.
    package func perInstance(_ count: Int) -> Double? { instances > 0 ? Double(count) / Double(instances) : nil }

    /// One group per (component, strategy, kind) of `rows`, in the order the groups first
    /// appear, each keeping its `top` largest types by requested bytes.
    package static func groups(_ rows: [TypeRow], top: Int) -> [TypeGroup] {
        struct Key: Hashable { let component, strategy, kind: String }
        var order: [Key] = []
        var members: [Key: [TypeRow]] = [:]
        for row in rows {
            let key = Key(component: row.component, strategy: row.strategy, kind: row.kind)
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(row)
        }
        return order.map { key in
            let rows = members[key] ?? []
            let types = rows.filter { !$0.isRemainder }.sorted {
                ($0.counts.requestedBytes, $0.counts.objects, $1.type) > ($1.counts.requestedBytes, $1.counts.objects, $0.type)
            }
            let shown = Array(types.prefix(max(top, 0)))
            var others = TypeCounts(), total = TypeCounts()
            for row in types.dropFirst(shown.count) { others.add(row.counts) }
            let remainderRows = rows.filter(\.isRemainder)
            var remainder: TypeCounts?
            if !remainderRows.isEmpty {
                var sum = TypeCounts()
                for row in remainderRows { sum.add(row.counts) }
                remainder = sum
            }
            for row in rows { total.add(row.counts) }
            return TypeGroup(component: key.component, strategy: key.strategy, kind: key.kind,
                             instances: rows.map(\.instances).max() ?? 0, top: shown,
                             otherTypes: types.count - shown.count, others: others, remainder: remainder, total: total)
        }
    }
}
