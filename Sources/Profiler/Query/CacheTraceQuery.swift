import ProfilerModel
import ProfilerStore

/// Reads a cache's request trace back from a run's events: its lookups (`hit`, `miss`
/// with the bytes the miss built), releases, evictions and idle turns, in the run's
/// order. The key is the event's component (the image name).
package enum CacheTraceQuery {
    /// The event kinds a trace is made of.
    static let kinds = "'hit', 'miss', 'release', 'evict', 'idle'"

    /// Strategies of the run with at least one lookup, in the order they were recorded.
    package static func strategies(runID: String, in db: any SQLRowSource) throws -> [String] {
        try db.rows("""
            SELECT s.strategy FROM event_series x
            JOIN runs r ON r.run_key = x.run_key
            JOIN subjects s ON s.subject_id = x.subject_id
            JOIN event_kinds k ON k.kind_id = x.kind_id
            WHERE r.run_id = ? AND k.name IN ('hit', 'miss')
            GROUP BY s.strategy ORDER BY MIN(x.series_id)
            """, [.text(runID)]).compactMap { $0.first?.string }
    }

    /// Runs with at least one lookup, newest first: the choices when a run has none.
    package static func runsWithRequests(in db: any SQLRowSource, limit: Int = 10) throws -> [String] {
        try db.rows("""
            SELECT r.run_id || ' (' || r.scenario || ')' FROM runs r
            WHERE EXISTS (SELECT 1 FROM event_series x JOIN event_kinds k ON k.kind_id = x.kind_id
                          WHERE x.run_key = r.run_key AND k.name IN ('hit', 'miss'))
            ORDER BY r.started_at DESC LIMIT ?
            """, [.init(limit)]).compactMap { $0.first?.string }
    }

    /// The trace of one strategy in one repeat of the run.
    package static func load(runID: String, strategy: String, repeatIndex: Int = 0,
                            in db: any SQLRowSource) throws -> CacheTrace {
        let rows = try db.rows("""
            SELECT k.name, s.component, e.requested_bytes
            FROM events e
            JOIN event_series x ON x.series_id = e.series_id
            JOIN runs r ON r.run_key = x.run_key
            JOIN subjects s ON s.subject_id = x.subject_id
            JOIN event_kinds k ON k.kind_id = x.kind_id
            WHERE r.run_id = ? AND s.strategy = ? AND x.repeat = ? AND k.name IN (\(kinds))
            ORDER BY e.seq
            """, [.text(runID), .text(strategy), .init(repeatIndex)])
        var trace = CacheTrace()
        trace.reserveCapacity(rows.count)
        for row in rows {
            guard let kind = row[0].string, let operation = CacheTrace.Operation(eventKind: kind) else { continue }
            trace.append(operation, name: row[1].string ?? "", bytes: Int(row[2].int64 ?? 0))
        }
        return trace
    }

    /// Live bytes the strategy held when its last step ended (the run's last sample of it):
    /// what its cache still holds once every user has let go.
    package static func endLiveBytes(runID: String, strategy: String, repeatIndex: Int = 0,
                                    in db: any SQLRowSource) throws -> Int? {
        try db.scalar("""
            SELECT m.live_requested_bytes FROM samples m JOIN runs r ON r.run_key = m.run_key
            WHERE r.run_id = ? AND m.strategy = ? AND m.repeat = ?
            ORDER BY m.elapsed_ns DESC LIMIT 1
            """, [.text(runID), .text(strategy), .init(repeatIndex)])?.int64.map { Int($0) }
    }
}
