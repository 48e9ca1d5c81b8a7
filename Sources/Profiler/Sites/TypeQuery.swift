import ProfilerModel
import ProfilerQueries
import ProfilerRecording
import ProfilerStore

/// Reads the types `record --types` stored (the `types` view).
package enum TypeQuery {
    /// Which runs have types and how their names are checked: shared with ``SiteQuery``.
    package static let capture = RunCapture.types

    /// The run's types that pass the filter: within each (component, strategy, kind), most
    /// objects first, the remainder last.
    package static func rows(runID: String, filter: CaptureFilter = CaptureFilter(), in db: any SQLRowSource) throws -> [TypeRow] {
        let matching = filter.condition(columns: capture.filterColumns, firstParameter: 2)
        return try db.rows("""
            SELECT component, strategy, kind, type, remainder, instances,
                   objects, requested_bytes, live_objects, live_requested_bytes
            FROM types
            WHERE run_id = ?1 AND \(matching.sql)
              -- Rows of objects an event only gave back (built earlier) are for the leak check.
              AND (objects <> 0 OR requested_bytes <> 0 OR live_objects <> 0 OR live_requested_bytes <> 0)
            ORDER BY component, strategy, kind, remainder, objects DESC, requested_bytes DESC, type
            """, [.text(runID)] + matching.bindings).map { r in
            TypeRow(component: r[0].string ?? "", strategy: r[1].string ?? "", kind: r[2].string ?? "",
                    type: r[3].string ?? "", isRemainder: (r[4].int64 ?? 0) != 0, instances: Int(r[5].int64 ?? 0),
                    counts: TypeCounts(objects: Int(r[6].int64 ?? 0), requestedBytes: Int(r[7].int64 ?? 0),
                                       liveObjects: Int(r[8].int64 ?? 0), liveRequestedBytes: Int(r[9].int64 ?? 0)))
        }
    }

    /// The run's types as its HTML report shows them: its rows, grouped in the report's
    /// order (components and strategies as its table lists them, those it does not list
    /// after them in the view's order; kinds in their lifecycle order); nil for a run
    /// recorded without types.
    package static func forReport(_ report: RunReport, in db: any SQLRowSource) throws -> [TypeRow]? {
        guard try capture.has(report.run.runID, in: db) else { return nil }
        func rank(_ column: String) -> [String: Int] {
            guard let index = report.table.columns.firstIndex(of: column) else { return [:] }
            var ranks: [String: Int] = [:]
            for row in report.table.rows where index < row.count {
                if let name = row[index].string, ranks[name] == nil { ranks[name] = ranks.count }
            }
            return ranks
        }
        let components = rank("component"), strategies = rank("strategy")
        let kinds = Dictionary(uniqueKeysWithValues: EventKind.allCases.enumerated().map { ($1.rawValue, $0) })
        // Enumerated so that rows the report does not rank keep the view's order (a stable sort).
        let ranked = try rows(runID: report.run.runID, in: db).enumerated().sorted { a, b in
            func key(_ r: (offset: Int, element: TypeRow)) -> (Int, Int, Int, Int) {
                (components[r.element.component] ?? .max, strategies[r.element.strategy] ?? .max,
                 kinds[r.element.kind] ?? .max, r.offset)
            }
            return key(a) < key(b)
        }
        return ranked.map(\.element)
    }

    /// The rows as a table, with objects per instance.
    package static func table(_ rows: [TypeRow]) -> ResultTable {
        ResultTable(
            columns: ["component", "strategy", "kind", "type", "instances", "objects", "objects_per_instance",
                      "requested_bytes", "live_objects", "live_requested_bytes"],
            rows: rows.map { r in
                [.text(r.component), .text(r.strategy), .text(r.kind), .text(r.type), .init(r.instances),
                 .init(r.counts.objects), .real(r.objectsPerInstance), .init(r.counts.requestedBytes),
                 .init(r.counts.liveObjects), .init(r.counts.liveRequestedBytes)]
            })
    }
}
