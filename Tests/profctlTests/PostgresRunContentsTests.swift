import Foundation
import Profiler
import ProfilerPostgres
import Testing

/// What a run holds in the SQLite file arrives whole in the PostgreSQL store: every table
/// both have, every column (ARC counts, lifetimes, object types included), and `types
/// --store` reads from it what `types` reads from the file.
@Suite("a run's contents on the PostgreSQL store", .serialized)
struct PostgresRunContentsTests {
    /// The file's tables the store has no table for yet: `push` leaves them local
    /// (docs/fleet.md, "Not in the store yet"). Changes only on purpose.
    static let fileOnlyTables: Set<String> = ["sites", "site_runs", "site_stacks", "site_stack_frames", "site_frames"]

    /// Each store's own bookkeeping: present on both, never copied.
    static let bookkeeping: Set<String> = ["schema_migrations", "report_views"]

    /// Keys each store hands out itself: their values differ between the stores by design.
    static let ownKeys: Set<String> = ["run_key", "series_id", "subject_id", "type_id"]

    /// Every built-in scenario with its types (lazy-container twice, with other instance
    /// counts), and one run without types, pushed into a fresh store.
    static func recordedAndPushed(_ server: PostgresTestDatabase) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "--types",
                                      "--instances", "5", "--repeat", "2"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["live-room", "--types", "--instances", "30"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "6"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        let pushed = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        return folder
    }

    @Test("types and whatif --store print what they print on the file, for every form of the commands",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func typesReadTheSame() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let typed = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
            .rows("SELECT r.run_id FROM runs r JOIN object_type_runs t ON t.run_key = r.run_key ORDER BY r.started_at")
            .compactMap { $0.first?.string }
        #expect(typed.count == 7)
        let forms: [[String]] = [
            ["types"],
            ["types", "--scenario", "lazy-container", "--format", "csv"],
            ["types", "--scenario", "lazy-container", "--component", "Label", "--strategy", "eager", "--kind", "create"],
            ["types", "--type", "ProfilerCatalog.TextStorage", "--scenario", "lazy-container", "--format", "json"],
            ["types", "--scenario", "image-cache", "--format", "markdown"],
            ["types", "--run", typed[1], "--format", "json"],
            ["types", "--diff", typed[0], typed[6], "--allow-param-mismatch", "--format", "csv"],
            ["types", "--diff", typed[0], typed[6]],
            // Wrong names: the same exit 64 and the same choices, read from the store.
            ["types", "--scenario", "lazy-container", "--type", "NoSuchType"],
            ["types", "--scenario", "lazy-container", "--component", "Labl"],
            ["types", "--scenario", "no-such-scenario"],
            // whatif replays the store's cache_trace (its migration 0012) as the file's.
            ["whatif"],
            ["whatif", "--policy", "lru,sieve,weak", "--capacity", "64KB,256KB,1MB", "--format", "csv"],
            ["whatif", "--strategy", "weak-cache", "--by", "entries", "--format", "json"],
            ["whatif", "--hit-ratio", "0.5"],
            ["whatif", "--check-replay"],
            ["whatif", "--strategy", "no-such-strategy"],
            ["whatif", "--run", typed[0]],
        ]
        for arguments in forms {
            let fromFile = try ProfctlProcess.run(arguments + ["--db", "local.sqlite"], in: folder.url)
            let fromStore = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
            #expect(fromStore.status == fromFile.status, "\(arguments): \(fromStore.stderr)")
            #expect(fromStore.stdout == fromFile.stdout, "\(arguments)")
            #expect(fromStore.stderr == fromFile.stderr, "\(arguments)")
        }
        // Not vacuous: the forms print rows, and the wrong names are refused.
        let all = try ProfctlProcess.run(["types", "--scenario", "lazy-container", "--store", server.url], in: folder.url)
        #expect(all.status == 0 && all.stdout.contains("ProfilerPrimitives.LazyContainer<ProfilerCatalog.Label,"), "\(all.stdout)\(all.stderr)")
        let typo = try ProfctlProcess.run(["types", "--scenario", "lazy-container", "--type", "NoSuchType", "--store", server.url],
                                          in: folder.url)
        #expect(typo.status == 64 && typo.stderr.contains("ProfilerCatalog.TextStorage"), "\(typo.stderr)")
        let replay = try ProfctlProcess.run(["whatif", "--format", "csv", "--store", server.url], in: folder.url)
        #expect(replay.status == 0 && replay.stdout.contains("lru"), "\(replay.stdout)\(replay.stderr)")
        // The run recorded without --types: refused on both, as on the file.
        let untyped = try #require(try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
            .scalar("SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1")?.string)
        let noTypes = try ProfctlProcess.run(["types", "--run", untyped, "--store", server.url], in: folder.url)
        let noTypesFile = try ProfctlProcess.run(["types", "--run", untyped, "--db", "local.sqlite"], in: folder.url)
        #expect(noTypes.status != 0 && noTypes.status == noTypesFile.status, "\(noTypes.stderr)")
        #expect(noTypes.stderr == noTypesFile.stderr)
    }

    @Test("every table both stores have arrives with the same rows, and every column with the same values",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func everyColumnArrives() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let local = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
        let store = try server.connect()
        let fileTables = Set(try local.rows("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            """).compactMap { $0.first?.string })
        let storeTables = Set(try store.query("""
            SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
            """).rows.compactMap { $0.first?.string })
        // A table added on one side only is noticed here: copy it, or list it as file-only.
        #expect(fileTables.subtracting(Self.fileOnlyTables) == storeTables)
        #expect(storeTables.isDisjoint(with: Self.fileOnlyTables))
        var compared = 0
        for table in storeTables.subtracting(Self.bookkeeping).sorted() {
            let fileColumns = try local.rows("SELECT name, type FROM pragma_table_info(?)", [.text(table)])
            let storeColumns = Set(try store.query("""
                SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
                """, [.text(table)]).rows.compactMap { $0.first?.string })
            #expect(Set(fileColumns.compactMap { $0[0].string }) == storeColumns, "\(table)")
            // Per column: how many values are not NULL (a column pushed as NULL shows here),
            // and for figures their sum (keys each store numbers itself excepted).
            var aggregates = ["count(*)"]
            for column in fileColumns {
                guard let name = column[0].string, storeColumns.contains(name) else { continue }
                aggregates.append("count(\(name))")
                if column[1].string == "INTEGER" && !Self.ownKeys.contains(name) { aggregates.append("sum(\(name))") }
            }
            let sql = "SELECT " + aggregates.joined(separator: ", ") + " FROM \(table)"
            let fromFile = PostgresReadingTests.normalized(try local.table(sql, []))
            let fromStore = PostgresReadingTests.normalized(try store.query(sql))
            #expect(fromFile == fromStore, "\(table): \(aggregates)")
            compared += 1
        }
        #expect(compared >= 18)
        // Not vacuous: the run's types and ARC counts are there.
        for sql in ["SELECT count(*) FROM object_types", "SELECT count(*) FROM object_type_runs", "SELECT count(retains) FROM events",
                    "SELECT count(*) FROM lifetime_rollups"] {
            #expect(try store.scalar(sql)?.int64 ?? 0 > 0, "\(sql)")
        }
    }

    @Test("a run pushed without its types (by a profctl from before they were pushed) gets them on the next push, and only them",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func typesAddedLater() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "5"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["image-cache", "--instances", "5"], db: "local.sqlite", in: folder)
        #expect(try PostgresPushTests.push("local.sqlite", to: server.url, in: folder).status == 0)
        let store = try server.connect()
        let typeRows = try PostgresPushTests.count("object_types", in: store)
        #expect(typeRows > 0)
        // What the older push left: the run whole, without its types.
        try store.execute("DELETE FROM object_types; DELETE FROM object_type_runs")
        let events = try PostgresPushTests.count("events", in: store)
        let again = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 runs pushed"), "\(again.stderr)")
        #expect(again.stderr.contains("object types added to 1 runs pushed without them"), "\(again.stderr)")
        #expect(try PostgresPushTests.count("object_types", in: store) == typeRows)
        #expect(try PostgresPushTests.count("object_type_runs", in: store) == 1)
        #expect(try PostgresPushTests.count("events", in: store) == events, "nothing else of the run is copied twice")
        let fromStore = try ProfctlProcess.run(["types", "--format", "csv", "--store", server.url], in: folder.url)
        let fromFile = try ProfctlProcess.run(["types", "--format", "csv", "--db", "local.sqlite"], in: folder.url)
        #expect(fromStore.status == 0 && fromStore.stdout == fromFile.stdout, "\(fromStore.stderr)")
        // A third push has nothing to add.
        let third = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(third.status == 0 && !third.stderr.contains("object types added"), "\(third.stderr)")
        #expect(try PostgresPushTests.count("object_types", in: store) == typeRows)
    }

    /// The file's views the store has no view for yet (docs/fleet.md, "Not in the store
    /// yet"); the commands reading them refuse --store. Changes only on purpose.
    static let fileOnlyViews: Set<String> = ["round_trip", "round_trip_instances", "site_stack_log", "site_summary",
                                             "size_classes", "temporaries"]

    @Test("every view both stores have has the same columns in the same order and returns the same rows",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func everyViewAgrees() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let local = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
        let store = try server.connect()
        let fileViews = Set(try local.rows("SELECT name FROM sqlite_master WHERE type = 'view'").compactMap { $0.first?.string })
        let storeViews = Set(try store.query("""
            SELECT table_name FROM information_schema.views WHERE table_schema = current_schema()
            """).rows.compactMap { $0.first?.string })
        // The store's views are hand-mirrored in its migrations (the report views excepted,
        // which both stores create from the declarations): a view added or changed on one
        // side only shows here.
        #expect(fileViews.subtracting(Self.fileOnlyViews) == storeViews)
        var withRows = 0
        for view in storeViews.intersection(fileViews).sorted() {
            let fileColumns = try local.table("SELECT * FROM \(view) LIMIT 0", []).columns
            let storeColumns = try store.query("SELECT * FROM \(view) LIMIT 0").columns
            #expect(fileColumns == storeColumns, "\(view)")
            let compared = fileColumns.filter { !Self.ownKeys.contains($0) && storeColumns.contains($0) }
            guard !compared.isEmpty else { continue }
            let sql = "SELECT " + compared.joined(separator: ", ") + " FROM \(view)"
            let fromFile = PostgresReadingTests.normalized(try local.table(sql, []))
            let fromStore = PostgresReadingTests.normalized(try store.query(sql))
            #expect(fromFile.count == fromStore.count, "\(view)")
            if !fromFile.isEmpty { withRows += 1 }
            #expect(fromFile == fromStore, "\(view): \(zip(fromFile, fromStore).first { $0 != $1 }.map { "\($0)\n\($1)" } ?? "")")
        }
        // Not vacuous: every scenario's report view and the general views hold rows.
        #expect(withRows >= 17, "\(withRows) views with rows")
    }
}

@Suite("event kinds on the PostgreSQL store")
struct PostgresEventKindTests {
    @Test("the store's event_kinds table holds EventKind's codes and names, as the file's does",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func codesMatchTheStore() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        let table = try store.query("SELECT kind_id, name FROM event_kinds ORDER BY kind_id").rows
        #expect(table == EventKind.allCases.map { [.integer($0.code), .text($0.rawValue)] })
    }
}
