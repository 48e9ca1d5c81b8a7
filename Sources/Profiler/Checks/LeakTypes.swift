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

/// Names what stayed by type. The types store which objects were still allocated when
/// their event's measurement ended, not which of them a later event gave back, so the
/// types name what stayed only when nothing built was given back: when their live
/// objects and bytes add up exactly to the blocks and bytes the verdict found left
/// behind (a retain cycle keeps everything an instance built). Otherwise they are not
/// named, and the note says why: a guess among them would misname.
package enum LeakTypes {
    /// Live objects and bytes by type per (component, strategy), summed over event kinds and
    /// repeats, most objects first; nil when the run was recorded without `--types`.
    static func load(_ run: RunInfo, in db: any SQLRowSource) throws -> [LeakSites.Subject: [LeakType]]? {
        guard try TypeMetric.recorded(run, in: db) else { return nil }
        var types: [LeakSites.Subject: [LeakType]] = [:]
        for row in try db.rows("""
            SELECT component, strategy, type, CAST(SUM(live_objects) AS BIGINT), CAST(SUM(live_requested_bytes) AS BIGINT)
            FROM types WHERE run_id = ?
            GROUP BY component, strategy, type
            HAVING SUM(live_objects) > 0
            ORDER BY component, strategy, SUM(live_objects) DESC, SUM(live_requested_bytes) DESC, type
            """, [.text(run.runID)]) {
            let subject = LeakSites.Subject(component: row[0].string ?? "", strategy: row[1].string ?? "")
            types[subject, default: []].append(LeakType(type: row[2].string ?? "", objects: row[3].int64 ?? 0, bytes: row[4].int64 ?? 0))
        }
        return types
    }

    /// The types that stayed behind `verdict`, or nil and why not.
    static func stayed(_ types: [LeakType], _ verdict: LeakVerdict) -> (types: [LeakType]?, note: String?) {
        let objects = types.reduce(0) { $0 + $1.objects }, bytes = types.reduce(0) { $0 + $1.bytes }
        guard objects == verdict.retainedBlocks && bytes == verdict.retainedBytes else {
            return (nil, "types not named: of the \(bytes) B in \(objects) blocks the instances kept when built, "
                + "\(verdict.retainedBytes) B in \(verdict.retainedBlocks) blocks stayed, and the types do not record which objects "
                + "were given back (a run recorded with allocation sites names the functions that allocated what stayed)")
        }
        return (types, nil)
    }

    /// Fills in `types` (or `typesNote`) of each verdict that left bytes behind.
    static func name(_ verdicts: inout [LeakVerdict], run: RunInfo, in db: any SQLRowSource) throws {
        guard let bySubject = try load(run, in: db) else { return }
        for index in verdicts.indices where verdicts[index].retainedBytes > 0 {
            let v = verdicts[index]
            (verdicts[index].types, verdicts[index].typesNote) = stayed(bySubject[LeakSites.Subject(component: v.component, strategy: v.strategy)] ?? [], v)
        }
    }
}
