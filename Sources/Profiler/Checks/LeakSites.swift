import ProfilerModel
import ProfilerOutputs
import ProfilerSites
import ProfilerStore

/// A function whose allocations outlived a (component, strategy)'s round trips, read from
/// the sites of a run recorded with `--sites` (docs/leaks.md).
package struct LeakSite: Sendable, Equatable {
    /// The site (the folding rule's innermost frame of the user's code), demangled.
    package let function: String
    /// "File.swift:12" of its largest part; "" without debug information.
    package let location: String
    /// Requested bytes still live after the round trips: what its blocks allocated in any
    /// of the component's events, less what was freed in them (its release events included).
    package let bytes: Int64
    package let blocks: Int64

    /// The function without its signature, for one-line messages.
    package var shortName: String { SiteName.short(function) }
}

/// Names what stays: per (component, strategy), the sites whose bytes are still live when
/// all its events are summed, largest first.
package enum LeakSites {
    /// The run's leaking sites by (component, strategy); nil when the run was recorded
    /// without `--sites`.
    static func load(runID: String, in db: any SQLRowSource) throws -> [Subject: [LeakSite]]? {
        guard try SiteQuery.hasSites(runID, in: db) else { return nil }
        // Per stack, summed over every kind: a block allocated in `create` and freed in
        // `release` is charged there negative to the stack that allocated it (docs/hooks.md).
        var parts: [Subject: [String: (bytes: Int64, blocks: Int64, location: String, largest: Int64)]] = [:]
        for row in try db.rows("""
            SELECT component, strategy, site, site_file, site_line,
                   SUM(live_requested_bytes) AS bytes, SUM(allocations - frees) AS blocks
            FROM site_summary WHERE run_id = ?
            GROUP BY component, strategy, site, site_file, site_line
            """, [.text(runID)]) {
            let subject = Subject(component: row[0].string ?? "", strategy: row[1].string ?? "")
            let site = row[2].string ?? "", bytes = row[5].int64 ?? 0, blocks = row[6].int64 ?? 0
            let location = SiteFrame.location(file: row[3].string ?? "", line: Int(row[4].int64 ?? 0))
            var entry = parts[subject, default: [:]][site] ?? (0, 0, location, bytes)
            entry.bytes += bytes
            entry.blocks += blocks
            if bytes > entry.largest { (entry.location, entry.largest) = (location, bytes) }
            parts[subject, default: [:]][site] = entry
        }
        return parts.mapValues { sites in
            sites.filter { $0.value.bytes > 0 }
                .map { LeakSite(function: $0.key, location: $0.value.location, bytes: $0.value.bytes, blocks: $0.value.blocks) }
                .sorted { ($0.bytes, $1.function) > ($1.bytes, $0.function) }
        }
    }

    /// A (component, strategy).
    struct Subject: Hashable {
        let component: String
        let strategy: String
    }
}
