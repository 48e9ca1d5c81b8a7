import ProfilerModel
import ProfilerStore

public enum TimelineQuery {
    /// Averaged over repeats; one point per (strategy, step) in recording order.
    public static func load(_ run: RunInfo, from db: any SQLRowSource) throws -> [TimelinePoint] {
        try db.rows("""
            SELECT strategy, step, AVG(live_requested_bytes), MIN(elapsed_ns) AS at
            FROM timeline WHERE run_id = ?
            GROUP BY strategy, step_index, step ORDER BY at
            """, [.text(run.runID)]).map {
            TimelinePoint(strategy: $0[0].string ?? "", step: $0[1].string ?? "", liveBytes: $0[2].double ?? 0)
        }
    }
}
