import ProfilerModel
import ProfilerStore

package enum TimelineQuery {
    /// Averaged over repeats; one point per (strategy, component, step) in recording order.
    package static func load(_ run: RunInfo, from db: any SQLRowSource) throws -> [TimelinePoint] {
        // A store from before samples had a component (SQLite schema 10, PostgreSQL 5;
        // reading never migrates) kept one point per (strategy, step).
        let component = try hasComponent(db, "timeline") ? "component" : "''"
        return try db.rows("""
            SELECT strategy, \(component), step, AVG(live_requested_bytes), MIN(elapsed_ns) AS at
            FROM timeline WHERE run_id = ?
            GROUP BY strategy, \(component), step_index, step ORDER BY at
            """, [.text(run.runID)]).map {
            TimelinePoint(strategy: $0[0].string ?? "", component: $0[1].string ?? "", step: $0[2].string ?? "", liveBytes: $0[3].double ?? 0)
        }
    }

    /// Whether `relation` (the timeline view, the samples table) has the component column.
    static func hasComponent(_ db: any SQLRowSource, _ relation: String) throws -> Bool {
        try db.table("SELECT * FROM \(relation) WHERE 1 = 0", []).columns.contains("component")
    }
}
