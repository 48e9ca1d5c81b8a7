import ProfilerModel
import ProfilerQueries
import ProfilerRecording
import ProfilerStore

/// Which types to read: all of a run's, or one component's, strategy's, kind's or type's.
package struct TypeFilter: Sendable, Equatable {
    package var component: String?
    package var strategy: String?
    package var kind: String?
    package var type: String?

    package init(component: String? = nil, strategy: String? = nil, kind: String? = nil, type: String? = nil) {
        self.component = component
        self.strategy = strategy
        self.kind = kind
        self.type = type
    }
}

/// Reads the types `record --types` stored (the `types` view).
package enum TypeQuery {
    /// The run a types command reads: `reference` (an id, a prefix or `latest`) or, by
    /// default, the newest run recorded with --types. Throws when it has no types.
    package static func run(_ reference: String?, scenario: String? = nil, in db: any SQLRowSource) throws -> RunInfo {
        if let reference {
            let run = try RunQueries.resolve(reference, scenario: scenario, in: db)
            if let scenario, run.scenario != scenario {
                throw StoreError.runNotFound(path: db.storeName, run: "\(reference) of scenario \(scenario)")
            }
            guard try hasTypes(run.runID, in: db) else { throw TypeCaptureError.noTypes(run: run.runID) }
            return run
        }
        guard let id = try db.scalar("""
            SELECT r.run_id FROM runs r JOIN object_type_runs t ON t.run_key = r.run_key
            WHERE CAST(?1 AS TEXT) IS NULL OR r.scenario = ?1
            ORDER BY r.started_at DESC, r.run_id DESC LIMIT 1
            """, [SQLValue(scenario)])?.string else { throw TypeCaptureError.noTypeRuns(path: db.storeName, scenario: scenario) }
        return try RunQueries.resolve(id, in: db)
    }

    /// Whether the run was recorded with --types.
    package static func hasTypes(_ runID: String, in db: any SQLRowSource) throws -> Bool {
        try db.scalar("SELECT 1 FROM object_type_runs t JOIN runs r ON r.run_key = t.run_key WHERE r.run_id = ?",
                      [.text(runID)]) != nil
    }

    /// Checks every name of `filter` against the runs' types: an unknown one throws
    /// ``UnknownNameError`` with the valid choices.
    /// - Parameter optionPrefix: put before the field's name to say where it was given (the CLI passes `--`).
    package static func validate(_ filter: TypeFilter, runIDs: [String], optionPrefix origin: String = "type filter ",
                                in db: any SQLRowSource) throws {
        for (field, value) in [("component", filter.component), ("strategy", filter.strategy), ("kind", filter.kind),
                               ("type", filter.type)] {
            guard let value else { continue }
            var known: Set<String> = []
            for runID in runIDs {
                // `field` is one of four fixed column names, never user input.
                known.formUnion(try db.rows("SELECT DISTINCT \(field) FROM types WHERE run_id = ?", [.text(runID)])
                    .compactMap { $0.first?.string })
            }
            guard known.contains(value) else {
                throw UnknownNameError(kind: field, name: value, origin: "\(origin)\(field)",
                                       scope: "in the types of run " + runIDs.joined(separator: " and "), known: known.sorted())
            }
        }
    }

    /// The run's types that pass the filter: within each (component, strategy, kind), most
    /// objects first, the remainder last.
    package static func rows(runID: String, filter: TypeFilter = TypeFilter(), in db: any SQLRowSource) throws -> [TypeRow] {
        try db.rows("""
            SELECT component, strategy, kind, type, remainder, instances,
                   objects, requested_bytes, live_objects, live_requested_bytes
            FROM types
            WHERE run_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR component = ?2)
              AND (CAST(?3 AS TEXT) IS NULL OR strategy = ?3) AND (CAST(?4 AS TEXT) IS NULL OR kind = ?4)
              AND (CAST(?5 AS TEXT) IS NULL OR type = ?5)
            ORDER BY component, strategy, kind, remainder, objects DESC, requested_bytes DESC, type
            """, [.text(runID), SQLValue(filter.component), SQLValue(filter.strategy), SQLValue(filter.kind),
                  SQLValue(filter.type)]).map { r in
            TypeRow(component: r[0].string ?? "", strategy: r[1].string ?? "", kind: r[2].string ?? "",
                    type: r[3].string ?? "", isRemainder: (r[4].int64 ?? 0) != 0, instances: Int(r[5].int64 ?? 0),
                    counts: TypeCounts(objects: Int(r[6].int64 ?? 0), requestedBytes: Int(r[7].int64 ?? 0),
                                       liveObjects: Int(r[8].int64 ?? 0), liveRequestedBytes: Int(r[9].int64 ?? 0)))
        }
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
