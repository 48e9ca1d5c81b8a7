import Foundation
import Profiler

/// Applies migrations/postgres/*.sql to a PostgreSQL database, with the SQLite store's
/// discipline: each in one transaction, recorded with its checksum; a newer schema, an
/// edited migration or another application's database is refused and left untouched.
/// Concurrent migrators (several CI jobs pushing to a new store at once) queue on an
/// advisory lock, so each migration is applied exactly once.
package struct PostgresMigrator: Sendable {
    package let migrations: [EmbeddedMigration]

    /// Marks the bookkeeping table as profctl's: other tools have tables named schema_migrations too.
    static let marker = "profctl PostgreSQL store"
    /// pg_advisory_xact_lock key: "profctl" in ASCII.
    static let lockKey: Int64 = 0x70_72_6f_66_63_74_6c

    package init(migrations: [EmbeddedMigration] = ProfilerPostgres.embeddedMigrations) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    package var latestVersion: Int { migrations.last?.version ?? 0 }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    BIGINT PRIMARY KEY,
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,
            applied_at TEXT NOT NULL
        );
        COMMENT ON TABLE schema_migrations IS '\(marker)';
        """

    /// Applied versions and checksums; empty for an empty database. Throws for a database
    /// that holds another application's tables.
    func applied(in db: PostgresConnection) throws -> [Int: String] {
        let marker = try db.scalar("""
            SELECT obj_description(c.oid, 'pg_class') FROM pg_class c
            WHERE c.relname = 'schema_migrations' AND c.relnamespace = CAST(current_schema() AS regnamespace)
            """)
        guard marker == .text(Self.marker) else {
            let others = try db.query("""
                SELECT c.relname FROM pg_class c
                WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
                ORDER BY c.relname
                """).rows.compactMap { $0.first?.string }
            if others.isEmpty { return [:] }
            throw PostgresError.notAProfctlStore(store: db.displayName, tables: others)
        }
        var result: [Int: String] = [:]
        for row in try db.query("SELECT version, checksum FROM schema_migrations").rows {
            if let version = row[0].int64, let checksum = row[1].string { result[Int(version)] = checksum }
        }
        return result
    }

    /// Refuses a store this binary cannot safely use.
    package func verify(_ db: PostgresConnection) throws {
        try verify(applied: try applied(in: db), store: db.displayName)
    }

    func verify(applied done: [Int: String], store: String) throws {
        if let newest = done.keys.max(), newest > latestVersion {
            throw PostgresError.schemaNewer(store: store, found: newest, known: latestVersion)
        }
        for m in migrations {
            if let recorded = done[m.version], recorded != m.checksum {
                throw PostgresError.checksumMismatch(store: store, version: m.version, name: m.name)
            }
        }
    }

    /// Applies what is pending; returns the versions applied now.
    @discardableResult
    package func migrate(_ db: PostgresConnection) throws -> [Int] {
        let before = try applied(in: db)
        try verify(applied: before, store: db.displayName)
        guard migrations.contains(where: { before[$0.version] == nil }) else { return [] }
        return try db.transaction {
            try db.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
            // Another pusher may have migrated while we waited for the lock.
            let done = try applied(in: db)
            try verify(applied: done, store: db.displayName)
            try db.execute(Self.bookkeeping)
            var appliedNow: [Int] = []
            for m in migrations where done[m.version] == nil {
                try db.execute(m.sql)
                _ = try db.query("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)",
                                 [.init(m.version), .text(m.name), .text(m.checksum), .text(Date().formatted(.iso8601))])
                appliedNow.append(m.version)
            }
            return appliedNow
        }
    }
}
