/// Copies the allocation sites of the runs a merge adds (`record --sites`): their frames
/// and stacks, deduplicated into the target's (frames by module, function, file and line;
/// stacks by their frames), then the runs' site rows and site_runs rows.
///
/// Frames and stacks are numbered by each database, and a stack's identity (its `frames`
/// column) spells its frame ids: both are renumbered into the target's, never copied as is.
enum SiteMerge {
    /// Runs inside the merge's transaction, with the source attached as `source` and the
    /// merge's `merged_runs` (source_key, target_key) filled in. Throws, undoing the whole
    /// input's merge, when a site row could not be carried over.
    static func copy(_ db: SQLiteConnection) throws {
        let counts = RunTables.siteCounts.joined(separator: ", ")
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS merged_frames (source_id INTEGER PRIMARY KEY, target_id INTEGER);
            CREATE TEMP TABLE IF NOT EXISTS merged_stacks (source_id INTEGER PRIMARY KEY, frames TEXT NOT NULL, target_id INTEGER);
            DELETE FROM merged_frames;
            DELETE FROM merged_stacks;

            -- The frames of the stacks the added runs' sites use, and the frames they are named by.
            INSERT INTO merged_frames (source_id)
            SELECT sf.frame_id FROM source.site_stack_frames sf
            WHERE sf.stack_id IN (SELECT x.stack_id FROM source.sites x JOIN merged_runs r ON r.source_key = x.run_key)
            UNION
            SELECT st.site_frame_id FROM source.site_stacks st
            WHERE st.stack_id IN (SELECT x.stack_id FROM source.sites x JOIN merged_runs r ON r.source_key = x.run_key);
            INSERT INTO main.site_frames (module, function, file, line)
            SELECT f.module, f.function, f.file, f.line FROM source.site_frames f
            WHERE f.frame_id IN (SELECT source_id FROM merged_frames) ORDER BY f.frame_id
            ON CONFLICT DO NOTHING;
            UPDATE merged_frames SET target_id = (
                SELECT m.frame_id FROM source.site_frames f
                JOIN main.site_frames m ON m.module = f.module AND m.function = f.function AND m.file = f.file AND m.line = f.line
                WHERE f.frame_id = merged_frames.source_id);

            -- Each stack's identity in the target: its renumbered frame ids, innermost first.
            INSERT INTO merged_stacks (source_id, frames)
            SELECT DISTINCT stack_id, frames FROM (
                SELECT sf.stack_id, group_concat(mf.target_id, ',') OVER (
                    PARTITION BY sf.stack_id ORDER BY sf.position
                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS frames
                FROM source.site_stack_frames sf JOIN merged_frames mf ON mf.source_id = sf.frame_id
                WHERE sf.stack_id IN (SELECT x.stack_id FROM source.sites x JOIN merged_runs r ON r.source_key = x.run_key));
            INSERT INTO main.site_stacks (frames, depth, site_frame_id)
            SELECT ms.frames, st.depth, mf.target_id FROM merged_stacks ms
            JOIN source.site_stacks st ON st.stack_id = ms.source_id
            JOIN merged_frames mf ON mf.source_id = st.site_frame_id
            ORDER BY ms.source_id
            ON CONFLICT DO NOTHING;
            UPDATE merged_stacks SET target_id = (SELECT stack_id FROM main.site_stacks s WHERE s.frames = merged_stacks.frames);
            INSERT OR IGNORE INTO main.site_stack_frames (stack_id, position, frame_id)
            SELECT ms.target_id, sf.position, mf.target_id FROM source.site_stack_frames sf
            JOIN merged_stacks ms ON ms.source_id = sf.stack_id
            JOIN merged_frames mf ON mf.source_id = sf.frame_id;

            INSERT INTO main.sites (run_key, subject_id, kind_id, stack_id, \(counts))
            SELECT r.target_key, ms.subject_id, x.kind_id, mst.target_id, \(RunTables.siteCounts.map { "x." + $0 }.joined(separator: ", "))
            FROM source.sites x
            JOIN merged_runs r ON r.source_key = x.run_key
            JOIN source.subjects ss ON ss.subject_id = x.subject_id
            JOIN main.subjects ms ON ms.component = ss.component AND ms.strategy = ss.strategy
            JOIN merged_stacks mst ON mst.source_id = x.stack_id;
            INSERT INTO main.site_runs (run_key, depth, stacks, dropped)
            SELECT r.target_key, s.depth, s.stacks, s.dropped FROM source.site_runs s JOIN merged_runs r ON r.source_key = s.run_key;
            """)
        // A stack without frame rows cannot be renumbered; its sites would be lost without a word.
        let source = try db.scalar("SELECT count(*) FROM source.sites WHERE run_key IN (SELECT source_key FROM merged_runs)")?.int64 ?? 0
        let copied = try db.scalar("SELECT count(*) FROM main.sites WHERE run_key IN (SELECT target_key FROM merged_runs)")?.int64 ?? 0
        guard source == copied else {
            throw SQLiteError(code: 1, message: "\(source - copied) of \(source) site rows name a stack without frames in the input "
                                              + "and could not be merged; nothing was merged from it (record those runs again with their sites)")
        }
    }
}
