import ProfilerModel
import ProfilerStore

/// The rows a run's Chrome trace is drawn from (ChromeTrace renders them).
package enum TraceQuery {
    package static func load(_ run: RunInfo, from db: any SQLRowSource) throws -> RunTrace {
        let key = try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(run.runID)]) ?? .null
        // Steps and live bytes: from the samples, in time order per strategy; one per
        // point, so each component's step is a slice of its own.
        let component = try TimelineQuery.hasComponent(db, "samples") ? "m.component" : "''"
        let samples = try db.rows("""
            SELECT m.strategy, \(component), st.name, m.repeat, m.live_requested_bytes, m.live_usable_bytes, m.elapsed_ns
            FROM samples m JOIN steps st ON st.run_key = m.run_key AND st.step = m.step
            WHERE m.run_key = ? ORDER BY m.elapsed_ns
            """, [key]).map { row in
            RunTrace.Sample(strategy: row[0].string ?? "", component: row[1].string ?? "", step: row[2].string ?? "", repeatIndex: row[3],
                            liveRequestedBytes: row[4], liveUsableBytes: row[5], elapsedNanoseconds: row[6].int64 ?? 0)
        }
        // Every lifecycle event, at the moment its measured work started.
        let events = try db.rows("""
            SELECT s.strategy, k.name, s.component, e.instance, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes,
                   e.duration_ns, e.at_us, x.repeat
            FROM event_series x JOIN events e ON e.series_id = x.series_id
            JOIN subjects s ON s.subject_id = x.subject_id JOIN event_kinds k ON k.kind_id = x.kind_id
            WHERE x.run_key = ? ORDER BY e.seq
            """, [key]).map { row in
            RunTrace.Event(strategy: row[0].string ?? "", kind: row[1], component: row[2], instance: row[3],
                           netLiveBytes: row[4], netLiveUsableBytes: row[5], durationNanoseconds: row[6],
                           atMicroseconds: row[7].int64 ?? 0, repeatIndex: row[8])
        }
        return RunTrace(run: run, samples: samples, events: events)
    }
}
