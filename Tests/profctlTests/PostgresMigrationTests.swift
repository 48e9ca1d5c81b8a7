import Foundation
import Profiler
import ProfilerPostgres
import SchemaDocExamples
import Testing

/// A store at version 1 (events in their old layout) with runs in it, migrated to version
/// 2 (events by series): every figure stays.
@Suite("migrating the PostgreSQL store", .serialized)
struct PostgresMigrationTests {
    /// The tables version 1 and 2 share, with their columns, in an order that keeps the
    /// foreign keys satisfied.
    static let sharedTables: [(String, [String])] = [
        ("runs", versionOneRunColumns),
        ("subjects", ["subject_id", "component", "strategy"]),
    ] + RunTables.perRun.filter { !laterTables.contains($0.table) }.map { table in
        (table.table, ["run_key"] + table.columns.filter { !(addedLater[table.table] ?? []).contains($0) })
    } + [
        ("baselines", ["name", "scenario", "run_id", "created_at"]),
    ]

    static let versionOneRunColumns: [String] = ["run_key"] + RunTables.runColumns.filter { !(addedLater["runs"] ?? []).contains($0) }

    /// Per-run tables a later version added: a version 1 store has none, and its runs keep none.
    static let laterTables: Set<String> = ["run_declarations", "lifetime_rollups", "size_class_rollups"]

    /// Columns of those tables that later versions added (samples' point and component: version 5).
    /// And ARC traffic's columns: version 7; the peak: version 11.
    static let addedLater: [String: Set<String>] = [
        "samples": ["point", "component"], "runs": ["arc_counting", "arc_toolchain"],
        "rollups": ["retains", "releases", "peak_requested_bytes"], "step_rollups": ["retains", "releases"],
    ]

    /// Version 1's events columns, as the version 2 store's event_rows view spells them.
    static let oldEventColumns = ["run_key", "seq", "repeat", "subject_id", "instance", "kind_id", "allocations", "frees",
                                  "requested_bytes", "usable_bytes", "duration_ns", "step", "at_us"]

    /// Copies every row of `from` (at the newest version) into `to` (at version 1), keys
    /// and all, events into version 1's layout: a store as a version 1 push left it.
    static func copy(from: PostgresConnection, to: PostgresConnection) throws {
        // Samples as version 1 kept them: one per (run, repeat, strategy, step), the last taken.
        func select(_ table: String, _ columns: [String]) -> String {
            table == "samples"
                ? "SELECT DISTINCT ON (run_key, repeat, strategy, step) \(columns.joined(separator: ", ")) FROM samples "
                    + "ORDER BY run_key, repeat, strategy, step, point DESC"
                : "SELECT \(columns.joined(separator: ", ")) FROM \(table)"
        }
        // Kinds added after version 1 (idle: version 6) come along with the events that use
        // them, as if that version 1 store had been given them; the migrations keep such rows.
        for kind in try from.query("SELECT kind_id, name FROM event_kinds WHERE kind_id > 5").rows {
            _ = try to.query("INSERT INTO event_kinds (kind_id, name) VALUES ($1, $2)", kind)
        }
        let sources = sharedTables.map { ($0.0, $0.1, select($0.0, $0.1)) }
            + [("events", oldEventColumns, "SELECT \(oldEventColumns.joined(separator: ", ")) FROM event_rows ORDER BY run_key, seq")]
        for (table, columns, select) in sources {
            let rows = try from.query(select).rows
            var next = 0
            // COPY writes identity columns as given (run_key, subject_id keep their values).
            try to.copy(into: table, columns: columns) { buffer in
                while next < rows.count {
                    buffer.appendRow(rows[next])
                    next += 1
                    if buffer.isFull { return true }
                }
                return false
            }
        }
        for sequence in [("runs", "run_key"), ("subjects", "subject_id")] {
            try to.execute("SELECT setval(pg_get_serial_sequence('\(sequence.0)', '\(sequence.1)'), (SELECT max(\(sequence.1)) FROM \(sequence.0)))")
        }
    }

    @Test("a version 1 store with runs migrates to events by series and keeps every figure", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func versionOneMigrates() throws {
        guard let pushed = try PostgresTestDatabase.make(), let old = try PostgresTestDatabase.make() else { return }
        let folder = try PostgresReadingTests.recordedAndPushed(pushed)
        let label = try ProfctlProcess.run(["baseline", "set", "main", "--store", pushed.url], in: folder.url)
        #expect(label.status == 0, "\(label.stderr)")
        let current = try pushed.connect()
        let versionOne = try old.connect()
        let first = PostgresMigrator(migrations: PostgresMigrator().migrations.filter { $0.version == 1 })
        #expect(try first.migrate(versionOne) == [1])
        try Self.copy(from: current, to: versionOne)
        #expect(try versionOne.scalar("SELECT count(*) FROM events")?.int64 == current.scalar("SELECT count(*) FROM events")?.int64)
        #expect(try versionOne.scalar("SELECT to_regclass('event_series')") == .null)

        // Readers refuse the old schema and say how to migrate; a push migrates it.
        let refused = try ProfctlProcess.run(["runs", "--store", old.url], in: folder.url)
        #expect(refused.status == 9, "\(refused.stderr)")
        #expect(refused.stderr.contains("schema version 1; this profctl reads version \(PostgresMigrator().latestVersion)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("profctl push --to"), "\(refused.stderr)")
        let push = try PostgresPushTests.push("local.sqlite", to: old.url, in: folder)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stderr.contains("0 runs pushed"), "\(push.stderr)")
        #expect(try versionOne.scalar("SELECT max(version) FROM schema_migrations")?.int64 == Int64(PostgresMigrator().latestVersion))

        // (An UPDATE writes new row versions wherever a page has room: read the pushed order first.)
        let pushedOutOfOrder = try current.scalar(Self.outOfOrder)?.int64
        // Nor ARC traffic before version 7, nor peaks before version 11: NULL ("not counted"),
        // never 0. The store pushed at the latest version is compared without them.
        #expect(try versionOne.scalar("""
            SELECT count(*) FROM events WHERE retains IS NOT NULL OR releases IS NOT NULL OR peak_requested_bytes IS NOT NULL
            """)?.int64 == 0)
        try current.execute("""
            UPDATE events SET retains = NULL, releases = NULL, peak_requested_bytes = NULL;
            UPDATE rollups SET retains = NULL, releases = NULL, peak_requested_bytes = NULL;
            UPDATE step_rollups SET retains = NULL, releases = NULL; UPDATE runs SET arc_counting = NULL, arc_toolchain = NULL
            """)
        // Every event, every example query and every report: the same as the store pushed at the latest version.
        let everyEvent = "SELECT * FROM event_log ORDER BY run_id, seq"
        let before = try current.query(everyEvent), after = try versionOne.query(everyEvent)
        #expect(after.rows.count > 1000)
        #expect(before.columns == after.columns)
        #expect(before.rows == after.rows)
        #expect(try versionOne.scalar("SELECT count(*) FROM event_series")?.int64 == current.scalar("SELECT count(*) FROM event_series")?.int64)
        // The push replaced the hand-written views of versions 1 and 3 with the declared ones.
        for report in BuiltInScenarios.reports {
            #expect(try versionOne.scalar("SELECT query FROM report_views WHERE view = $1", [.text(report.view)])?.string == report.query,
                    "\(report.view)")
        }
        // Runs pushed before version 4 stored no declaration (docs/schema.md): the migration adds the table, empty.
        #expect(try versionOne.scalar("SELECT count(*) FROM run_declarations")?.int64 == 0)
        // Nor lifetimes before version 10: their temporaries are NULL, not made up. The store
        // pushed at the latest version is compared without them from here on.
        #expect(try versionOne.scalar("SELECT count(*) FROM lifetime_rollups")?.int64 == 0)
        #expect(try current.scalar("SELECT count(*) FROM lifetime_rollups")?.int64 ?? 0 > 0)
        try current.execute("DELETE FROM lifetime_rollups; DELETE FROM size_class_rollups")
        for query in try SchemaDocExamples.queries(includingFileOnly: false) where !Self.laterTables.contains(where: query.contains) {
            let a = try PostgresReadOnlyQuery.run(query, on: current).table, b = try PostgresReadOnlyQuery.run(query, on: versionOne).table
            #expect(PostgresReadingTests.normalized(a) == PostgresReadingTests.normalized(b), "\(query)")
        }
        for arguments in [["report", "--format", "json"], ["check", "--baseline", "main", "--format", "json"],
                          ["export", "--scenario", "image-cache"]] {
            let a = try ProfctlProcess.run(arguments + ["--store", pushed.url], in: folder.url)
            let b = try ProfctlProcess.run(arguments + ["--store", old.url], in: folder.url)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            #expect(!a.stdout.isEmpty)
            #expect(a.stdout == b.stdout, "\(arguments)")
        }
        // The migrated rows lie in (series_id, seq) order, as push writes them (the pushed
        // store's order was read before the UPDATE above moved its rows).
        #expect(try versionOne.scalar(Self.outOfOrder)?.int64 == 0)
        #expect(pushedOutOfOrder == 0)
    }

    /// Events not in (series_id, seq) order on disk.
    static let outOfOrder = """
        SELECT count(*) FROM (SELECT series_id, seq, lag(series_id) OVER (ORDER BY ctid) AS s0, lag(seq) OVER (ORDER BY ctid) AS q0 FROM events) x
        WHERE (series_id, seq) < (s0, q0)
        """
}
