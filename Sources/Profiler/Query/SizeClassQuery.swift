import ProfilerModel
import ProfilerStore

package enum SizeClassQuery {
    /// The run's size classes per strategy, in the order the strategies first allocated;
    /// empty for a run recorded before schema version 8.
    package static func load(_ run: RunInfo, from db: any SQLRowSource) throws -> [SizeClassPoint] {
        try db.rows("""
            SELECT strategy, size_class, SUM(allocations), SUM(requested_bytes), SUM(usable_bytes)
            FROM size_classes WHERE run_id = ?
            GROUP BY strategy, size_class ORDER BY strategy, size_class
            """, [.text(run.runID)]).map {
            SizeClassPoint(strategy: $0[0].string ?? "", sizeClass: Int($0[1].int64 ?? 0), allocations: Int($0[2].int64 ?? 0),
                           requestedBytes: Int($0[3].int64 ?? 0), usableBytes: Int($0[4].int64 ?? 0))
        }
    }
}
