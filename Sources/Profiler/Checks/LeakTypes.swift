import ProfilerModel
import ProfilerStore

/// One Swift type among what a (component, strategy)'s round trips left behind, read from
/// the types of a run recorded with `--types` (docs/leaks.md).
package struct LeakType: Sendable, Equatable {
    /// As `profctl types` names it; `(not a Swift object)` for the blocks no object claims.
    package let type: String
    package let objects: Int64
    package let bytes: Int64
}

/// Names what stayed by type. Since schema version 23 a run's types also count, per type,
/// the objects its events freed that an earlier event had built (the sites' address table
/// carries each object's type to its free: docs/hooks.md, "Types"), so live less released,
/// summed over a subject's events, is what its round trips left of each type, as exactly
/// as the round trip counts the bytes: a partial leak (a screen freed, its hub entry kept)
/// is named too. A run recorded before that stored only what each event kept when it
/// ended: its types name what stayed only where they add up to it exactly (nothing built
/// was given back, as in a retain cycle), and otherwise not at all, with a note saying why.
package enum LeakTypes {
    /// What each (component, strategy) left of each type, most objects first.
    struct Loaded {
        var bySubject: [LeakSites.Subject: [LeakType]] = [:]
        /// The run's types count what later events gave back (recorded with version 23 on).
        var releasesKnown = false
    }

    /// Objects and bytes left by type per (component, strategy), summed over event kinds and
    /// repeats, most objects first, the types that left something only; nil when the run
    /// was recorded without `--types`.
    static func load(_ run: RunInfo, in db: any SQLRowSource) throws -> Loaded? {
        guard try TypeMetric.recorded(run, in: db) else { return nil }
        var loaded = Loaded()
        loaded.releasesKnown = try db.scalar("""
            SELECT t.releases FROM object_type_runs t JOIN runs r ON r.run_key = t.run_key WHERE r.run_id = ?
            """, [.text(run.runID)])?.int64 == 1
        for row in try db.rows("""
            SELECT component, strategy, type, CAST(SUM(live_objects - released_objects) AS BIGINT) AS stayed_objects,
                   CAST(SUM(live_requested_bytes - released_requested_bytes) AS BIGINT) AS stayed_bytes
            FROM types WHERE run_id = ?
            GROUP BY component, strategy, type
            HAVING SUM(live_objects - released_objects) > 0 OR SUM(live_requested_bytes - released_requested_bytes) > 0
            ORDER BY component, strategy, stayed_objects DESC, stayed_bytes DESC, type
            """, [.text(run.runID)]) {
            let subject = LeakSites.Subject(component: row[0].string ?? "", strategy: row[1].string ?? "")
            loaded.bySubject[subject, default: []].append(LeakType(type: row[2].string ?? "", objects: row[3].int64 ?? 0, bytes: row[4].int64 ?? 0))
        }
        return loaded
    }

    /// The types that stayed behind `verdict`, or nil, and a note when they are not named or
    /// do not add up to it.
    static func stayed(_ types: [LeakType], _ verdict: LeakVerdict, releasesKnown: Bool) -> (types: [LeakType]?, note: String?) {
        let objects = types.reduce(0) { $0 + $1.objects }, bytes = types.reduce(0) { $0 + $1.bytes }
        let addsUp = objects == verdict.retainedBlocks && bytes == verdict.retainedBytes
        if releasesKnown {
            guard !addsUp else { return (types, nil) }
            // Exact per type, but over every round and every byte: the verdict's rules (a
            // round that gave back more counts as zero, bytes kept on purpose) are not split by type.
            return (types, "the types are what the events left over all rounds, \(bytes) B in \(objects) blocks; "
                + "the verdict counts \(verdict.retainedBytes) B in \(verdict.retainedBlocks) blocks (rounds that gave back more "
                + "than they took count as zero, bytes kept on purpose apart), which the types are not split by")
        }
        guard addsUp else {
            return (nil, "types not named: of the \(bytes) B in \(objects) blocks the instances kept when built, "
                + "\(verdict.retainedBytes) B in \(verdict.retainedBlocks) blocks stayed, and this run's types do not record "
                + "which objects were given back (recorded before profctl counted them, schema version 23): record it again "
                + "with type capture on to name them (a run recorded with allocation sites names the functions that allocated what stayed)")
        }
        return (types, nil)
    }

    /// Fills in `types` (or `typesNote`) of each verdict that left bytes behind.
    static func name(_ verdicts: inout [LeakVerdict], run: RunInfo, in db: any SQLRowSource) throws {
        guard let loaded = try load(run, in: db) else { return }
        for index in verdicts.indices where verdicts[index].retainedBytes > 0 {
            let v = verdicts[index]
            (verdicts[index].types, verdicts[index].typesNote) = stayed(
                loaded.bySubject[LeakSites.Subject(component: v.component, strategy: v.strategy)] ?? [], v,
                releasesKnown: loaded.releasesKnown)
        }
    }
}
