import Foundation
import Testing
@testable import Profiler

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
        let report = try RunReport.load(try RunQueries.resolve("run-1", in: upgraded), measure: .requested, from: upgraded)
        let column = try #require(report.table.columns.firstIndex(of: "break_even_pct"))
        #expect(report.table.rows.map { $0[column] } == [.null, .text("never"), .null, .real(93.19)])
    }

    @Test("a failing migration leaves the database as it was")
    func failedMigrationRollsBack() throws {
        let temp = try TemporaryDatabase()
        let broken = EmbeddedMigration(version: 2, name: "broken",
                                       sql: "CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);")
        let migrator = Migrator(migrations: Migrator().migrations.filter { $0.version == 1 } + [broken])
        #expect(throws: SQLiteError.self) { _ = try ProfileStore.openForWriting(path: temp.path, migrator: migrator) }
        let db = try SQLiteConnection(path: temp.path, mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half'")?.int64 == 0)
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
        #expect(embedded.map(\.version) == Array(1...files.count))
        for (file, migration) in zip(files, embedded) {
            #expect(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) == migration.sql, "\(file)")
            #expect(file == String(format: "%04d_%@.sql", migration.version, migration.name))
        }
    }
}
