import ProfilerModel
import ProfilerStore

/// Stores a run's captured types: names once per database, then the run's rows, in one
/// transaction.
package enum TypeWriter {
    /// Writes `captured` for the run `runID` of the database at `path`.
    package static func write(_ captured: CapturedTypes, runID: String, database path: String) throws {
        let db = try ProfileStore.openForWriting(path: path)
        guard let runKey = try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(runID)])?.int64 else {
            throw TypeCaptureError.noSuchRun(runID)
        }
        try db.transaction {
            let insertName = try db.prepare("INSERT INTO object_type_names (name) VALUES (?) ON CONFLICT DO NOTHING")
            let findName = try db.prepare("SELECT type_id FROM object_type_names WHERE name = ?")
            // Every subject with types emitted events, which the run's writer stored first.
            let findSubject = try db.prepare("SELECT subject_id FROM subjects WHERE component = ? AND strategy = ?")
            let insert = try db.prepare("""
                INSERT INTO object_types (run_key, subject_id, kind_id, type_id, objects, requested_bytes,
                                          live_objects, live_requested_bytes, released_objects, released_requested_bytes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var typeIDs: [String: Int64] = [:]
            for (key, c) in captured.counts.sorted(by: { ($0.key.component, $0.key.type) < ($1.key.component, $1.key.type) }) {
                guard let subject = try findSubject.rows([.text(key.component), .text(key.strategy)]).first?.first?.int64 else {
                    throw SQLiteError(code: 1, message: "the subject \(key.component)/\(key.strategy) has types but no events in run \(runID)")
                }
                let typeID: Int64
                if let known = typeIDs[key.type] {
                    typeID = known
                } else {
                    try insertName.run([.text(key.type)])
                    guard let id = try findName.rows([.text(key.type)]).first?.first?.int64 else {
                        throw SQLiteError(code: 1, message: "the type name \(key.type) could not be read back")
                    }
                    typeIDs[key.type] = id
                    typeID = id
                }
                try insert.run([.integer(runKey), .integer(subject), .integer(key.kind.code), .integer(typeID),
                                .init(c.objects), .init(c.requestedBytes), .init(c.liveObjects), .init(c.liveRequestedBytes),
                                .init(c.releasedObjects), .init(c.releasedRequestedBytes)])
            }
            let types = Set(captured.counts.keys.map(\.type)).subtracting([ObjectTypeCounts.remainder]).count
            // releases 1: this run's rows count what later events gave back (schema version 23).
            try db.run("INSERT INTO object_type_runs (run_key, types, dropped, releases) VALUES (?, ?, ?, 1)",
                       [.integer(runKey), .init(types), .init(captured.dropped)])
        }
    }
}
