import Foundation

/// Combines databases recorded on several machines into one history. Runs are keyed by
/// their UUID, so merging the same input twice adds nothing; inputs are opened read-only;
/// each input is merged in one transaction.
package enum Merger {
    package struct Outcome: Sendable, Equatable {
        package let input: String
        package let runsAdded: Int
        package let runsAlreadyPresent: Int
        /// Labels of the output that now name another run: the input's label was set later.
        package var labelsMoved: [MovedLabel] = []
    }

    /// A label (per scenario) that a merge moved to the input's run.
    package struct MovedLabel: Sendable, Equatable, CustomStringConvertible {
        package let name: String
        package let scenario: String
        package let fromRun: String
        package let toRun: String

        package var description: String { "\(name): \(scenario) run \(fromRun.prefix(8)) -> \(toRun.prefix(8))" }
    }

    /// Every input is checked before the output is touched; an output this call created
    /// is removed again when an input fails half-way, so a failed merge leaves no file.
    /// `views`: the report views the output is given (the built-in ones, for profctl);
    /// an input's own report views the output lacks are copied with its runs.
    package static func merge(into output: String, from inputs: [String], views: [RepeatableView] = []) throws -> [Outcome] {
        for input in inputs {
            // A database this binary understands, checked without writing to it.
            _ = try ProfileStore.openForReading(path: input, repairAbandoned: false)
        }
        let creating = DatabaseFile.inspect(output) == .missing
        do {
            return try mergeChecked(into: output, from: inputs, views: views)
        } catch {
            if creating { DatabaseFile.remove(output) }
            throw error
        }
    }

    /// The merge itself; its connection is closed when it returns or throws.
    private static func mergeChecked(into output: String, from inputs: [String], views: [RepeatableView]) throws -> [Outcome] {
        let db = try ProfileStore.openForWriting(path: output, views: views)
        var outcomes: [Outcome] = []
        for input in inputs {
            // A reading connection held open across the read-only ATTACH closes last, so it
            // removes the input's -wal and -shm files (the attachment cannot).
            let reader = try ProfileStore.openForReading(path: input, repairAbandoned: false)
            try withExtendedLifetime(reader) {
                let uri = "file:" + (input.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? input) + "?mode=ro"
                try db.run("ATTACH DATABASE ? AS source", [.text(uri)])
                defer { try? db.execute("DETACH DATABASE source") }
                outcomes.append(try db.transaction { try mergeAttached(input, db) })
            }
        }
        return outcomes
    }

    /// Copies the attached source's finished runs that the target lacks (runs still
    /// recording in the source are left for a later merge).
    private static func mergeAttached(_ input: String, _ db: SQLiteConnection) throws -> Outcome {
        let present = try db.scalar("SELECT count(*) FROM source.runs WHERE run_id IN (SELECT run_id FROM main.runs)")?.int64 ?? 0
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS merged_runs (source_key INTEGER PRIMARY KEY, run_id TEXT, target_key INTEGER);
            DELETE FROM merged_runs;
            INSERT INTO merged_runs (source_key, run_id)
            SELECT run_key, run_id FROM source.runs
            WHERE run_id NOT IN (SELECT run_id FROM main.runs) AND status <> 'running';
            """)
        let columns = RunTables.runColumns.joined(separator: ", ")
        try db.execute("""
            INSERT INTO main.runs (\(columns))
            SELECT \(columns) FROM source.runs WHERE run_key IN (SELECT source_key FROM merged_runs)
            ORDER BY started_at;
            UPDATE merged_runs SET target_key = (SELECT run_key FROM main.runs m WHERE m.run_id = merged_runs.run_id);
            INSERT INTO main.subjects (component, strategy)
            SELECT component, strategy FROM source.subjects WHERE true
            ON CONFLICT DO NOTHING;
            INSERT INTO main.event_series (run_key, repeat, step, subject_id, kind_id)
            SELECT r.target_key, x.repeat, x.step, ms.subject_id, x.kind_id
            FROM source.event_series x
            JOIN merged_runs r ON r.source_key = x.run_key
            JOIN source.subjects ss ON ss.subject_id = x.subject_id
            JOIN main.subjects ms ON ms.component = ss.component AND ms.strategy = ss.strategy
            ORDER BY x.series_id;
            INSERT INTO main.events (series_id, seq, instance, allocations, frees, requested_bytes, usable_extra_bytes, duration_ns, at_us,
                                     retains, releases, peak_requested_bytes)
            SELECT mx.series_id, e.seq, e.instance,
                   e.allocations, e.frees, e.requested_bytes, e.usable_extra_bytes, e.duration_ns, e.at_us, e.retains, e.releases,
                   e.peak_requested_bytes
            FROM source.event_series x
            JOIN merged_runs r ON r.source_key = x.run_key
            JOIN source.subjects ss ON ss.subject_id = x.subject_id
            JOIN main.subjects ms ON ms.component = ss.component AND ms.strategy = ss.strategy
            JOIN main.event_series mx ON mx.run_key = r.target_key AND mx.repeat = x.repeat AND mx.step = x.step
                                     AND mx.subject_id = ms.subject_id AND mx.kind_id = x.kind_id
            JOIN source.events e ON e.series_id = x.series_id;
            """)
        for (table, tableColumns) in RunTables.perRun {
            let list = tableColumns.joined(separator: ", ")
            try db.execute("""
                INSERT INTO main.\(table) (run_key, \(list))
                SELECT r.target_key, \(tableColumns.map { "x." + $0 }.joined(separator: ", "))
                FROM source.\(table) x JOIN merged_runs r ON r.source_key = x.run_key;
                """)
        }
        try SiteMerge.copy(db)
        try TypeMerge.copy(db)
        // The label set more recently wins (created_at is when `baseline set` ran, ISO 8601
        // text that sorts): a main-branch job labels its run and merges it into the history,
        // and the history's older label must move forward, not stay on the first run forever.
        let moved = try db.rows("""
            SELECT s.name, s.scenario, m.run_id, s.run_id
            FROM source.baselines s JOIN main.baselines m ON m.name = s.name AND m.scenario = s.scenario
            WHERE s.created_at > m.created_at AND s.run_id <> m.run_id
              AND s.run_id IN (SELECT run_id FROM main.runs)
            ORDER BY s.name, s.scenario
            """).map { row in
                MovedLabel(name: row[0].string ?? "", scenario: row[1].string ?? "", fromRun: row[2].string ?? "", toRun: row[3].string ?? "")
            }
        try db.execute("""
            INSERT INTO main.baselines (name, scenario, run_id, created_at)
            SELECT name, scenario, run_id, created_at FROM source.baselines
            WHERE run_id IN (SELECT run_id FROM main.runs)
            ON CONFLICT (name, scenario) DO UPDATE SET run_id = excluded.run_id, created_at = excluded.created_at
            WHERE excluded.created_at > baselines.created_at;
            """)
        // A user's own report, declared by an executable the output has never seen.
        for view in try ReportViews.missing(fromAttached: "source", in: db) { try ReportViews.replace(view, in: db) }
        let added = try db.scalar("SELECT count(*) FROM merged_runs")?.int64 ?? 0
        return Outcome(input: input, runsAdded: Int(added), runsAlreadyPresent: Int(present), labelsMoved: moved)
    }
}
