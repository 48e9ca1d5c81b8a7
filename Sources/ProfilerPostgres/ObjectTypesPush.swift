import Profiler

/// A run's object types (`record --types`; the file's migration 0015, the store's 0008),
/// copied by `push` with the run, so `types --store` reads what `types` reads from the file.
/// Type names are the store's own rows (object_type_names), found by name as subjects and
/// event kinds are: the file's type_id means nothing in the store.
extension Pusher {
    /// The store's type ids for the names the run's types use, adding missing names first in
    /// a short transaction of their own, in name order (as subjects: concurrent pushers never
    /// deadlock on them; a name no run uses is harmless).
    static func typeNameIDs(for runID: String, local: SQLiteConnection, store: PostgresConnection) throws -> [String: Int64] {
        let names = try local.rows("""
            SELECT DISTINCT n.name FROM object_types t JOIN runs r ON r.run_key = t.run_key
            JOIN object_type_names n ON n.type_id = t.type_id WHERE r.run_id = ? ORDER BY n.name
            """, [.text(runID)]).compactMap { $0.first?.string }
        guard !names.isEmpty else { return [:] }
        let list = SQLValue.text(postgresArray(names))
        _ = try store.query("""
            INSERT INTO object_type_names (name) SELECT n FROM unnest(CAST($1 AS text[])) AS x (n) ORDER BY n
            ON CONFLICT DO NOTHING
            """, [list])
        var result: [String: Int64] = [:]
        for row in try store.query("SELECT name, type_id FROM object_type_names WHERE name = ANY (CAST($1 AS text[]))", [list]).rows {
            if let name = row[0].string, let id = row[1].int64 { result[name] = id }
        }
        guard result.count == names.count else {
            throw PushError.inconsistentRun(runID: runID, detail: "\(names.count) type names, \(result.count) found in the store")
        }
        return result
    }

    /// Copies the run's object_type_runs row and its object_types rows (keys translated to
    /// the store's), inside the caller's transaction. Returns the type rows copied; nil when
    /// the store already has the run's types (another pusher added them). A run recorded
    /// without --types has neither and copies nothing.
    static func copyObjectTypes(runID: String, runKey: Int64, local: SQLiteConnection, store: PostgresConnection,
                                subjects: [String: Int64], kinds: [String: Int64], typeNames: [String: Int64]) throws -> Int? {
        let columns = RunTables.objectTypeRunColumns
        guard let mark = try local.rows("""
            SELECT \(columns.map { "t." + $0 }.joined(separator: ", ")) FROM object_type_runs t
            JOIN runs r ON r.run_key = t.run_key WHERE r.run_id = ?
            """, [.text(runID)]).first else { return 0 }
        // The mark first: a second pusher of the same run's types waits on its key, then adds nothing.
        let placeholders = (2...(columns.count + 1)).map { "$\($0)" }.joined(separator: ", ")
        let marked = try store.query("""
            INSERT INTO object_type_runs (run_key, \(columns.joined(separator: ", "))) VALUES ($1, \(placeholders))
            ON CONFLICT (run_key) DO NOTHING RETURNING 1
            """, [.integer(runKey)] + mark)
        guard !marked.rows.isEmpty else { return nil }
        let counts = RunTables.objectTypeCounts
        let rows = try local.rows("""
            SELECT s.component, s.strategy, k.name, n.name, \(counts.map { "t." + $0 }.joined(separator: ", "))
            FROM object_types t JOIN runs r ON r.run_key = t.run_key
            JOIN subjects s ON s.subject_id = t.subject_id JOIN event_kinds k ON k.kind_id = t.kind_id
            JOIN object_type_names n ON n.type_id = t.type_id
            WHERE r.run_id = ? ORDER BY t.subject_id, t.kind_id, t.type_id
            """, [.text(runID)])
        var translated: [[SQLValue]] = []
        for row in rows {
            let component = row[0].string ?? "", strategy = row[1].string ?? "", kind = row[2].string ?? "", name = row[3].string ?? ""
            guard let subject = subjects[component + "\u{0}" + strategy] else {
                throw PushError.inconsistentRun(runID: runID, detail: "types of \(component)/\(strategy), which has no subject in the store")
            }
            guard let kindID = kinds[kind] else {
                throw PushError.inconsistentRun(runID: runID, detail: "event kind \(kind) is unknown to the store")
            }
            guard let typeID = typeNames[name] else {
                throw PushError.inconsistentRun(runID: runID, detail: "no type name \(name) in the store")
            }
            translated.append([.integer(runKey), .integer(subject), .integer(kindID), .integer(typeID)] + row[4...])
        }
        var next = 0
        if !translated.isEmpty {
            try store.copy(into: "object_types", columns: ["run_key", "subject_id", "kind_id", "type_id"] + counts) { buffer in
                while next < translated.count {
                    buffer.appendRow(translated[next])
                    next += 1
                    if buffer.isFull { return true }
                }
                return false
            }
        }
        return rows.count
    }

    /// A run the store already has, pushed by a profctl that left its types local: its types
    /// now, in a transaction of their own. Nothing else of the run is touched. Returns
    /// whether types were added.
    static func addMissingObjectTypes(runID: String, local: SQLiteConnection, store: PostgresConnection,
                                      kinds: [String: Int64]) throws -> Bool {
        guard try local.scalar("SELECT 1 FROM object_type_runs t JOIN runs r ON r.run_key = t.run_key WHERE r.run_id = ?",
                                [.text(runID)]) != nil else { return false }
        guard let runKey = try store.scalar("""
            SELECT r.run_key FROM runs r WHERE r.run_id = $1
            AND NOT EXISTS (SELECT 1 FROM object_type_runs t WHERE t.run_key = r.run_key)
            """, [.text(runID)])?.int64 else { return false }
        let subjects = try subjectIDs(for: runID, local: local, store: store)
        let typeNames = try typeNameIDs(for: runID, local: local, store: store)
        return try store.transaction {
            try copyObjectTypes(runID: runID, runKey: runKey, local: local, store: store, subjects: subjects, kinds: kinds,
                                typeNames: typeNames) != nil
        }
    }
}
