import ProfilerModel
import ProfilerRecording

/// How one site changed between two runs.
package enum SiteChange: String, Sendable {
    case grew, shrank, appeared, vanished
}

/// One site's change between run A and run B, matched by (component, strategy, kind,
/// site): the site is the folding rule's demangled function name, not an address, so two
/// builds compare (docs/hooks.md, "Sites").
package struct SiteDifference: Sendable, Equatable {
    package let component: String
    package let strategy: String
    package let kind: String
    package let site: String
    package let change: SiteChange
    package let before: SiteCounts
    package let after: SiteCounts

    /// Live requested bytes, B minus A.
    package var deltaBytes: Int { after.liveRequestedBytes - before.liveRequestedBytes }
}

/// The sites that grew, shrank, appeared or vanished from one run to another.
package enum SiteDiff {
    struct Key: Hashable, Comparable {
        let component, strategy, kind, site: String
        static func < (a: Key, b: Key) -> Bool {
            (a.component, a.strategy, a.kind, a.site) < (b.component, b.strategy, b.kind, b.site)
        }
    }

    static func folded(_ rows: [SiteRow]) -> [Key: SiteCounts] {
        var sums: [Key: SiteCounts] = [:]
        for row in rows {
            sums[Key(component: row.component, strategy: row.strategy, kind: row.kind, site: row.site), default: SiteCounts()].add(row.counts)
        }
        return sums
    }

    /// Every site whose live bytes or allocations differ, largest change first. A site
    /// present in one run only appeared or vanished.
    package static func compare(_ a: [SiteRow], _ b: [SiteRow]) -> [SiteDifference] {
        let before = folded(a), after = folded(b)
        var result: [SiteDifference] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            let x = before[key], y = after[key]
            let change: SiteChange
            switch (x, y) {
            case (nil, _?): change = .appeared
            case (_?, nil): change = .vanished
            case (let x?, let y?):
                if x.liveRequestedBytes == y.liveRequestedBytes && x.allocations == y.allocations { continue }
                change = y.liveRequestedBytes > x.liveRequestedBytes
                    || (y.liveRequestedBytes == x.liveRequestedBytes && y.allocations > x.allocations) ? .grew : .shrank
            default: continue
            }
            result.append(SiteDifference(component: key.component, strategy: key.strategy, kind: key.kind, site: key.site,
                                         change: change, before: x ?? SiteCounts(), after: y ?? SiteCounts()))
        }
        return result.sorted { abs($0.deltaBytes) > abs($1.deltaBytes) }
    }

    /// The differences as a table.
    package static func table(_ differences: [SiteDifference]) -> ResultTable {
        ResultTable(
            columns: ["component", "strategy", "kind", "site", "change", "live_bytes_a", "live_bytes_b", "delta_bytes",
                      "allocations_a", "allocations_b"],
            rows: differences.map { d in
                [.text(d.component), .text(d.strategy), .text(d.kind), .text(d.site), .text(d.change.rawValue),
                 .init(d.before.liveRequestedBytes), .init(d.after.liveRequestedBytes), .init(d.deltaBytes),
                 .init(d.before.allocations), .init(d.after.allocations)]
            })
    }
}
