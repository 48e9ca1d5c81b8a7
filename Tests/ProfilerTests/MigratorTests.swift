import Foundation
import Testing
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

@Suite("Migrations")
struct MigratorTests {
    private func schema(_ db: SQLiteConnection) throws -> [[SQLValue]] {
        try db.rows("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    }

    @Test("an empty database gets every migration; a second run applies nothing and changes nothing")
    func migrateTwice() throws {
        let temp = try TemporaryDatabase()
        let migrator = Migrator()
        #expect(migrator.latestVersion >= 1)
        let (first, applied) = try ProfileStore.openAndMigrate(path: temp.path, migrator: migrator)
        #expect(applied == migrator.migrations.map(\.version))
        let before = try schema(first)
        #expect(before.contains { $0[1] == .text("savings") })
        #expect(try first.scalar("PRAGMA user_version")?.int64 == Int64(migrator.latestVersion))

        let (second, appliedAgain) = try ProfileStore.openAndMigrate(path: temp.path, migrator: migrator)
        #expect(appliedAgain.isEmpty)
        #expect(try schema(second) == before)
        #expect(try migrator.status(of: second).allSatisfy { $0.state == .applied })
    }

    @Test("version 4 moves a version-2 database's events into series: every view keeps its columns and rows")
    func eventsBySeriesUpgrade() throws {
        let temp = try TemporaryDatabase()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/schema-v1.sqlite")
        try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: temp.path))
        let db = try SQLiteConnection(path: temp.path, mode: .readWrite)
        try Migrator(migrations: embeddedMigrations.filter { $0.version <= 2 }).migrate(db)
        let views = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name").compactMap { $0[0].string }
        func columns(_ view: String) throws -> [[SQLValue]] {
            try db.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(view)])
        }
        let columnsBefore = try views.map(columns)
        let eventsBefore = try db.rows("SELECT * FROM event_log ORDER BY run_id, seq")
        let savingsBefore = try db.rows("SELECT * FROM savings_by_measure ORDER BY run_id, bytes_measure, ordinal")
        #expect(eventsBefore.count > 100)

        let applied = try Migrator().migrate(db)
        #expect(applied.contains(4))
        // Every view keeps its columns, but timeline, which gains `component` after
        // `strategy` in version 10 (docs/schema.md's contract note), and savings_by_measure,
        // which gains two last columns in version 17 (what building an instance cost).
        var expected = columnsBefore
        if let timeline = views.firstIndex(of: "timeline"), let strategy = expected[timeline].firstIndex(of: [.text("strategy")]) {
            expected[timeline].insert([.text("component")], at: strategy + 1)
        }
        // Version 14 adds ARC traffic at the end of the views that carry events or
        // per-instance figures: NULL ("not counted") in every run recorded before.
        // Version 17 adds allocations and temporary bytes per instance after them, version
        // 18 the peak per event and per instance last.
        let arcColumns: [String: [String]] = [
            "event_log": ["retains", "releases", "peak_requested_bytes"], "event_rows": ["retains", "releases", "peak_requested_bytes"],
            "step_summary": ["retains", "releases"],
            "savings_by_measure": ["retains_per_instance", "releases_per_instance", "allocations_per_instance", "temporary_bytes_per_instance",
                                   "peak_bytes_per_instance"],
            "savings": ["retains_per_instance", "releases_per_instance"],
            "savings_usable": ["retains_per_instance", "releases_per_instance"],
        ]
        for (index, view) in views.enumerated() { expected[index] += (arcColumns[view] ?? []).map { [.text($0)] } }
        #expect(try views.map(columns) == expected, "every view keeps its columns")
        let eventsAfter = try db.rows("SELECT * FROM event_log ORDER BY run_id, seq")
        #expect(eventsAfter.map { Array($0.dropLast(3)) } == eventsBefore)
        #expect(eventsAfter.allSatisfy { $0.suffix(3).allSatisfy { $0 == .null } },
                "runs recorded before count no retains and measured no peak: NULL, never 0")
        let savingsAfter = try db.rows("SELECT * FROM savings_by_measure ORDER BY run_id, bytes_measure, ordinal")
        #expect(savingsAfter.map { Array($0.prefix(savingsBefore.first?.count ?? 0)) } == savingsBefore)
        #expect(!savingsAfter.isEmpty && savingsAfter.allSatisfy { Array($0.suffix(5).prefix(2)).allSatisfy { $0 == .null } })
        // The schema-v1 file has no lifetimes and no peaks: none rather than made-up ones.
        #expect(savingsAfter.allSatisfy { $0.suffix(2).allSatisfy { $0 == .null } })
        #expect(try db.scalar("SELECT count(*) FROM events")?.int64 == Int64(eventsBefore.count))
        #expect(try db.scalar("SELECT count(*) FROM event_series WHERE series_id NOT IN (SELECT series_id FROM events)")?.int64 == 0)
        #expect(try db.scalar("PRAGMA foreign_key_check") == nil)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test("a database whose schema is newer than the binary is refused, for writing and for reading")
    func newerSchemaRefused() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        try db.run("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (999, 'future', 'x', 'now')")
        let latest = Migrator().latestVersion
        #expect(throws: StoreError.schemaNewer(path: temp.path, found: 999, known: latest)) {
            _ = try ProfileStore.openForWriting(path: temp.path)
        }
        #expect(throws: StoreError.schemaNewer(path: temp.path, found: 999, known: latest)) {
            _ = try ProfileStore.openForReading(path: temp.path)
        }
    }

    @Test("an applied migration whose text has changed is caught by its checksum")
    func editedMigrationCaught() throws {
        let temp = try TemporaryDatabase()
        _ = try ProfileStore.openForWriting(path: temp.path)
        let edited = Migrator().migrations.map { m in
            m.version == 1 ? EmbeddedMigration(version: 1, name: m.name, sql: m.sql + "\n-- edited") : m
        }
        #expect(throws: StoreError.checksumMismatch(path: temp.path, version: 1, name: "initial")) {
            _ = try ProfileStore.openForWriting(path: temp.path, migrator: Migrator(migrations: edited))
        }
    }

    @Test("a database behind the binary is migrated by record but refused by readers with the fix")
    func olderSchemaNeedsMigration() throws {
        let temp = try TemporaryDatabase()
        let next = EmbeddedMigration(version: 2, name: "next", sql: "CREATE TABLE later (x INTEGER) STRICT;")
        let newer = Migrator(migrations: Migrator().migrations.filter { $0.version == 1 } + [next])
        _ = try ProfileStore.openForWriting(path: temp.path, migrator: Migrator(migrations: Array(newer.migrations.prefix(1))))
        #expect(throws: StoreError.needsMigration(path: temp.path, found: 1, latest: 2)) {
            _ = try ProfileStore.openForReading(path: temp.path, migrator: newer)
        }
        let (_, applied) = try ProfileStore.openAndMigrate(path: temp.path, migrator: newer)
        #expect(applied == [2])
    }

    @Test("upgrading a version-2 database: a lazy row that costs more than eager has no break-even (NULL, read as never), not -20")
    func breakEvenNeverAfterUpgrade() throws {
        let temp = try TemporaryDatabase()
        let version2 = Migrator(migrations: Migrator().migrations.filter { $0.version <= 2 })
        let old = try ProfileStore.openForWriting(path: temp.path, migrator: version2)
        try old.run("""
            INSERT INTO runs (run_key, run_id, scenario, status, started_at, host, os, arch, swift_version,
                              build_configuration, tool_version, baseline_strategy, parameters, process_id)
            VALUES (1, 'run-1', 'tiny-container', 'complete', '2026-11-22T00:00:00.000Z', 'h', 'linux', 'x86_64', '6',
                    'debug', '0', 'eager', '{"repeats": 1}', 1)
            """)
        // Tiny: eager 40 B, lazy 48 B (the container costs more); Label: eager 705 B, lazy 48 B.
        for (ordinal, component, strategy, bytes) in [(1, "Tiny", "eager", 40), (2, "Tiny", "lazy", 48),
                                                      (3, "Label", "eager", 705), (4, "Label", "lazy", 48)] {
            try old.run("""
                INSERT INTO rollups VALUES (1, ?, ?, ?, 1, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(component), .text(strategy), .integer(Int64(ordinal))] + Array(repeating: SQLValue.integer(Int64(bytes)), count: 8))
        }
        let breakEven = "SELECT break_even_pct FROM savings_report WHERE component = ? AND strategy = 'lazy' AND bytes_measure = 'requested'"
        #expect(try old.scalar(breakEven, [.text("Tiny")]) == .real(-20))

        let (upgraded, applied) = try ProfileStore.openAndMigrate(path: temp.path)
        #expect(applied.contains(3))
        #expect(try upgraded.scalar(breakEven, [.text("Tiny")]) == .null)
        #expect(try upgraded.scalar(breakEven, [.text("Label")]) == .real(93.19))
        let report = try RunReport.load(try RunQueries.resolve("run-1", in: upgraded), measure: .requested, catalog: BuiltInScenarios.reportCatalog(in: upgraded), from: upgraded)
        let column = try #require(report.table.columns.firstIndex(of: "break_even_pct"))
        #expect(report.table.rows.map { $0[column] } == [.null, .text("never"), .null, .real(93.19)])
    }

    @Test("a failing migration leaves the database as it was, with none of the migrations pending beside it applied")
    func failedMigrationRollsBack() throws {
        let temp = try TemporaryDatabase()
        let first = Migrator(migrations: Migrator().migrations.filter { $0.version == 1 })
        _ = try ProfileStore.openForWriting(path: temp.path, migrator: first)
        let fine = EmbeddedMigration(version: 2, name: "fine", sql: "CREATE TABLE fine (x INTEGER);")
        let broken = EmbeddedMigration(version: 3, name: "broken",
                                       sql: "CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);")
        let migrator = Migrator(migrations: first.migrations + [fine, broken])
        #expect(throws: SQLiteError.self) { _ = try ProfileStore.openForWriting(path: temp.path, migrator: migrator) }
        let db = try SQLiteConnection(path: temp.path, mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('half', 'fine')")?.int64 == 0)
        // All pending migrations are one transaction: a reader never sees a version in between.
        #expect(try Migrator().currentVersion(of: db) == 1)
    }

    @Test("a file that is not a database is refused with its name and left untouched")
    func notADatabase() throws {
        let temp = try TemporaryDatabase()
        let text = Data(String(repeating: "this is not sqlite\n", count: 300).utf8)
        try text.write(to: URL(fileURLWithPath: temp.path))
        #expect(throws: StoreError.notADatabase(path: temp.path)) { _ = try ProfileStore.openForWriting(path: temp.path) }
        #expect(throws: StoreError.notADatabase(path: temp.path)) { _ = try ProfileStore.openForReading(path: temp.path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: temp.path)) == text)
    }

    @Test("reading a missing database says how to make one and creates nothing")
    func missingDatabase() throws {
        let temp = try TemporaryDatabase()
        #expect(throws: StoreError.missingDatabase(path: temp.path)) { _ = try ProfileStore.openForReading(path: temp.path) }
        #expect(!FileManager.default.fileExists(atPath: temp.path))
    }
}

@Suite("Embedded migrations")
struct EmbeddedMigrationTests {
    @Test("the binary holds every migrations/*.sql file, byte for byte, in version order")
    func matchFiles() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        let embedded = Migrator().migrations
        // Versions as the files number them: migrations land from parallel branches, so a
        // later number may arrive before an earlier one.
        #expect(embedded.map(\.version) == files.compactMap { Int($0.prefix(4)) })
        for (file, migration) in zip(files, embedded) {
            #expect(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) == migration.sql, "\(file)")
            #expect(file == String(format: "%04d_%@.sql", migration.version, migration.name))
        }
    }
}
