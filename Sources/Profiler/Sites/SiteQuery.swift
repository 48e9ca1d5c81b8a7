import ProfilerHooks
import ProfilerModel
import ProfilerQueries
import ProfilerRecording
import ProfilerStore

/// Reads the sites `record --sites` stored (the site_summary view and the stacks).
package enum SiteQuery {
    /// Which runs have sites and how their names are checked: shared with ``TypeQuery``.
    package static let capture = RunCapture.sites

    /// The run a sites command reads (``RunCapture/run(_:scenario:in:)``).
    package static func run(_ reference: String?, scenario: String? = nil, in db: any SQLRowSource) throws -> RunInfo {
        try capture.run(reference, scenario: scenario, in: db)
    }

    /// Whether the run was recorded with --sites.
    package static func hasSites(_ runID: String, in db: any SQLRowSource) throws -> Bool {
        try capture.has(runID, in: db)
    }

    /// The run's sites that pass the filter, largest live bytes first within each
    /// (component, strategy, kind).
    package static func rows(runID: String, filter: CaptureFilter = CaptureFilter(), in db: any SQLRowSource) throws -> [SiteRow] {
        let matching = filter.condition(columns: capture.filterColumns, firstParameter: 2)
        return try db.rows("""
            SELECT component, strategy, kind, site, site_file, site_line, stack_id,
                   allocations, frees, requested_bytes, usable_bytes, live_requested_bytes, live_usable_bytes
            FROM site_summary
            WHERE run_id = ?1 AND \(matching.sql)
            ORDER BY component, strategy, kind, live_requested_bytes DESC, requested_bytes DESC, stack_id
            """, [.text(runID)] + matching.bindings).map { r in
            var c = SiteCounts()
            c.allocations = Int(r[7].int64 ?? 0)
            c.frees = Int(r[8].int64 ?? 0)
            c.requestedBytes = Int(r[9].int64 ?? 0)
            c.usableBytes = Int(r[10].int64 ?? 0)
            c.liveRequestedBytes = Int(r[11].int64 ?? 0)
            c.liveUsableBytes = Int(r[12].int64 ?? 0)
            return SiteRow(component: r[0].string ?? "", strategy: r[1].string ?? "", kind: r[2].string ?? "",
                           site: r[3].string ?? "", file: r[4].string ?? "", line: Int(r[5].int64 ?? 0),
                           stackID: r[6].int64 ?? 0, counts: c)
        }
    }

    /// The frames of the given stacks, innermost first.
    package static func stacks(_ ids: Set<Int64>, in db: any SQLRowSource) throws -> [Int64: SiteStack] {
        var result: [Int64: [SiteFrame]] = [:]
        for row in try db.rows("""
            SELECT l.stack_id, l.module, l.function, l.file, l.line FROM site_stack_log l
            JOIN (SELECT DISTINCT stack_id FROM sites) s ON s.stack_id = l.stack_id ORDER BY l.stack_id, l.position
            """) {
            guard let id = row[0].int64, ids.contains(id) else { continue }
            result[id, default: []].append(SiteFrame(module: row[1].string ?? "", function: row[2].string ?? "",
                                                     file: row[3].string ?? "", line: Int(row[4].int64 ?? 0)))
        }
        return result.mapValues { SiteStack(frames: $0) }
    }

    /// Sites folded by name (the folding rule), as a table: one row per (component,
    /// strategy, kind, site), summing its stacks.
    package static func table(_ rows: [SiteRow]) -> ResultTable {
        struct Key: Hashable { let component, strategy, kind, site, location: String }
        var order: [Key] = []
        var sums: [Key: (SiteCounts, Int)] = [:]
        for row in rows {
            let key = Key(component: row.component, strategy: row.strategy, kind: row.kind, site: row.site,
                          location: location(row))
            if sums[key] == nil { order.append(key) }
            var entry = sums[key] ?? (SiteCounts(), 0)
            entry.0.add(row.counts)
            entry.1 += 1
            sums[key] = entry
        }
        return ResultTable(
            columns: ["component", "strategy", "kind", "site", "location", "allocations", "frees", "requested_bytes",
                      "usable_bytes", "live_requested_bytes", "live_usable_bytes", "stacks"],
            rows: order.map { key in
                let (c, stacks) = sums[key] ?? (SiteCounts(), 0)
                return [.text(key.component), .text(key.strategy), .text(key.kind), .text(key.site), .text(key.location),
                        .init(c.allocations), .init(c.frees), .init(c.requestedBytes), .init(c.usableBytes),
                        .init(c.liveRequestedBytes), .init(c.liveUsableBytes), .init(stacks)]
            })
    }

    /// "File.swift:12", "File.swift" without a line, "" without debug information.
    static func location(_ row: SiteRow) -> String {
        SiteFrame.location(file: row.file, line: row.line)
    }

    /// The sites as call trees, one per (component, strategy, kind): the user's frames from
    /// the outermost in, each line with the live requested bytes and allocations under it.
    package static func tree(_ rows: [SiteRow], stacks: [Int64: SiteStack]) -> String {
        var out = ""
        let groups = SiteCallTree.groups(rows, stacks: stacks) { $0.liveRequestedBytes }
        func render(_ node: SiteCallTree, _ depth: Int) {
            let sorted = node.order.compactMap { name in node.children[name].map { (name, $0) } }
                .sorted { abs($0.1.bytes) > abs($1.1.bytes) }
            for (name, child) in sorted {
                out += String(repeating: "  ", count: depth) + "\(child.bytes) B  \(child.allocations) alloc  \(name)\n"
                render(child, depth + 1)
            }
        }
        for (title, root) in groups {
            out += "\(title): \(root.bytes) B live, \(root.allocations) allocations\n"
            render(root, 1)
        }
        return out
    }
}

extension SiteQuery {
    /// A run's sites and their stacks (SiteIcicle and Pprof draw them); throws when the run
    /// was recorded without --sites.
    package static func sites(runID: String, in db: any SQLRowSource) throws -> RunSites {
        guard try hasSites(runID, in: db) else { throw SiteError.noSites(run: runID) }
        let rows = try rows(runID: runID, in: db)
        return RunSites(runID: runID, rows: rows, stacks: try stacks(Set(rows.map(\.stackID)), in: db))
    }
}
