import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// The rollups as GROUP BY queries over all of a run's events (what the recorder ran at
/// the end of every run before it kept figures per series): the reference the written
/// rollups must equal, row for row. Each selects a table's columns in the table's order
/// for run ?1.
enum RollupReference {
    static let rollupSQL = """
        WITH per_instance AS (
            SELECT e.subject_id, e.repeat, e.instance,
                   MIN(e.seq) AS first_seq,
                   MAX(e.kind_id = 0) AS created,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.allocations ELSE 0 END) AS allocations,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.requested_bytes ELSE 0 END) AS requested,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.usable_bytes ELSE 0 END) AS usable,
                   SUM(CASE WHEN e.kind_id = 5 THEN -e.requested_bytes ELSE 0 END) AS released_requested,
                   SUM(CASE WHEN e.kind_id = 5 THEN -e.usable_bytes ELSE 0 END) AS released_usable,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.retains END) AS retains,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.releases END) AS releases,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.peak_requested_bytes ELSE 0 END) AS peak
            FROM event_rows e
            WHERE e.run_key = ?1
            GROUP BY e.subject_id, e.repeat, e.instance
        )
        SELECT ?1, s.component, s.strategy,
               ROW_NUMBER() OVER (ORDER BY MIN(p.first_seq)),
               SUM(p.created) / COUNT(DISTINCT p.repeat), COUNT(DISTINCT p.repeat), SUM(p.allocations),
               SUM(p.requested), SUM(p.usable),
               MIN(p.requested), MAX(p.requested), MIN(p.usable), MAX(p.usable),
               SUM(p.released_requested), SUM(p.released_usable), SUM(p.retains), SUM(p.releases), SUM(p.peak)
        FROM per_instance p
        JOIN subjects s ON s.subject_id = p.subject_id
        GROUP BY p.subject_id
        HAVING SUM(p.created) > 0
        """

    static let stepRollupSQL = """
        WITH ranked AS (
            SELECT seq, step, subject_id, kind_id, repeat, instance, requested_bytes, usable_bytes, duration_ns, retains, releases,
                   ROW_NUMBER() OVER (PARTITION BY step, subject_id, kind_id ORDER BY duration_ns) AS position,
                   COUNT(*) OVER (PARTITION BY step, subject_id, kind_id) AS total
            FROM event_rows
            WHERE run_key = ?1
        )
        SELECT ?1, x.step, s.component, s.strategy, k.name, COUNT(*),
               COUNT(DISTINCT x.repeat || ':' || x.instance),
               SUM(x.requested_bytes), SUM(x.usable_bytes), SUM(x.duration_ns),
               MAX(CASE WHEN x.position = (x.total + 1) / 2 THEN x.duration_ns END),
               MAX(CASE WHEN x.position = (9 * x.total + 9) / 10 THEN x.duration_ns END),
               MIN(x.seq), SUM(x.retains), SUM(x.releases)
        FROM ranked x
        JOIN subjects s ON s.subject_id = x.subject_id
        JOIN event_kinds k ON k.kind_id = x.kind_id
        GROUP BY x.step, x.subject_id, x.kind_id
        """

    static let latencyRollupSQL = """
        WITH ranked AS (
            SELECT step, subject_id, kind_id, repeat, duration_ns,
                   ROW_NUMBER() OVER (PARTITION BY step, subject_id, kind_id, repeat ORDER BY duration_ns) AS position,
                   COUNT(*) OVER (PARTITION BY step, subject_id, kind_id, repeat) AS total
            FROM event_rows
            WHERE run_key = ?1 AND kind_id IN (0, 1)
        )
        SELECT ?1, x.step, s.component, s.strategy, k.name, x.repeat, COUNT(*),
               MAX(CASE WHEN x.position = (x.total + 1) / 2 THEN x.duration_ns END)
        FROM ranked x
        JOIN subjects s ON s.subject_id = x.subject_id
        JOIN event_kinds k ON k.kind_id = x.kind_id
        GROUP BY x.step, x.subject_id, x.kind_id, x.repeat
        """

    /// Every row of `table` for the run, in its primary key's order, with its SQL values.
    static func rows(of table: String, run: Int64, in db: SQLiteConnection) throws -> [[SQLValue]] {
        try db.rows("SELECT * FROM \(table) WHERE run_key = ? ORDER BY 1, 2, 3, 4, 5, 6", [.integer(run)])
    }

    /// The reference rows of `query`, sorted the same way.
    static func expected(_ query: String, run: Int64, in db: SQLiteConnection) throws -> [[SQLValue]] {
        try db.rows("SELECT * FROM (\(query)) ORDER BY 1, 2, 3, 4, 5, 6", [.integer(run)])
    }
}
