/// Copies the object types of the runs a merge adds (`record --types`): type names are
/// numbered by each database, so they are matched by name into the target's
/// `object_type_names`, as subjects are; then the runs' `object_types` and
/// `object_type_runs` rows. Without this, `profctl merge` kept a run's events and dropped
/// its types: `types` on the merged file said the run was recorded without --types.
enum TypeMerge {
    /// Runs inside the merge's transaction, with the source attached as `source` and the
    /// merge's `merged_runs` (source_key, target_key) filled in.
    static func copy(_ db: SQLiteConnection) throws {
        let counts = RunTables.objectTypeCounts
        let runColumns = RunTables.objectTypeRunColumns
        try db.execute("""
            INSERT INTO main.object_type_names (name)
            SELECT n.name FROM source.object_type_names n
            WHERE n.type_id IN (SELECT x.type_id FROM source.object_types x JOIN merged_runs r ON r.source_key = x.run_key)
            ORDER BY n.type_id
            ON CONFLICT DO NOTHING;
            INSERT INTO main.object_types (run_key, subject_id, kind_id, type_id, \(counts.joined(separator: ", ")))
            SELECT r.target_key, ms.subject_id, x.kind_id, mn.type_id, \(counts.map { "x." + $0 }.joined(separator: ", "))
            FROM source.object_types x
            JOIN merged_runs r ON r.source_key = x.run_key
            JOIN source.subjects ss ON ss.subject_id = x.subject_id
            JOIN main.subjects ms ON ms.component = ss.component AND ms.strategy = ss.strategy
            JOIN source.object_type_names sn ON sn.type_id = x.type_id
            JOIN main.object_type_names mn ON mn.name = sn.name;
            INSERT INTO main.object_type_runs (run_key, \(runColumns.joined(separator: ", ")))
            SELECT r.target_key, \(runColumns.map { "t." + $0 }.joined(separator: ", "))
            FROM source.object_type_runs t JOIN merged_runs r ON r.source_key = t.run_key;
            """)
    }
}
