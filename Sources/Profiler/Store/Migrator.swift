import CSQLite
import Foundation
import ProfilerSupport

/// Where one migration stands in one database.
package struct MigrationStatus: Sendable, Equatable {
    package enum State: String, Sendable { case applied, pending, unknown }
    package let version: Int
    package let name: String
    package let state: State
    package let appliedAt: String?
}

/// Applies the embedded migrations in order, each in one immediate transaction, and
/// records each with its checksum. The bookkeeping table is the migrator's own; every
/// other table and view comes from migrations/*.sql.
package struct Migrator: Sendable {
    package let migrations: [EmbeddedMigration]

    package init(migrations: [EmbeddedMigration] = embeddedMigrations) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    package var latestVersion: Int { migrations.last?.version ?? 0 }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,
            applied_at TEXT NOT NULL
        ) STRICT
        """

    /// The applied versions with their checksums; empty for a database never migrated.
    func applied(in db: SQLiteConnection) throws -> [Int: (name: String, checksum: String, appliedAt: String)] {
        let exists = try db.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
        guard exists?.int64 == 1 else { return [:] }
        var result: [Int: (String, String, String)] = [:]
        for row in try db.rows("SELECT version, name, checksum, applied_at FROM schema_migrations") {
            guard let version = row[0].int64 else { continue }
            result[Int(version)] = (row[1].string ?? "", row[2].string ?? "", row[3].string ?? "")
        }
        return result
    }

    /// Every known and every unknown (newer) migration, in version order.
    package func status(of db: SQLiteConnection) throws -> [MigrationStatus] {
        let done = try applied(in: db)
        var rows = migrations.map { m in
            MigrationStatus(version: m.version, name: m.name,
                            state: done[m.version] == nil ? .pending : .applied,
                            appliedAt: done[m.version]?.appliedAt)
        }
        let known = Set(migrations.map(\.version))
        for (version, info) in done where !known.contains(version) {
            rows.append(MigrationStatus(version: version, name: info.name, state: .unknown, appliedAt: info.appliedAt))
        }
        return rows.sorted { $0.version < $1.version }
    }

    /// Refuses a database this binary cannot safely use: another application's, a newer
    /// schema, or an applied migration whose text differs from the embedded one. Reads only.
    /// Returns the applied migrations it read, for `migrate(_:verified:)`.
    @discardableResult
    package func verify(_ db: SQLiteConnection) throws -> [Int: (name: String, checksum: String, appliedAt: String)] {
        try checkOwnership(db)
        let done = try applied(in: db)
        if let newest = done.keys.max(), newest > latestVersion {
            throw StoreError.schemaNewer(path: db.path, found: newest, known: latestVersion)
        }
        let userVersion = Int(try db.scalar("PRAGMA user_version")?.int64 ?? 0)
        if userVersion > latestVersion {
            throw StoreError.schemaNewer(path: db.path, found: userVersion, known: latestVersion)
        }
        for m in migrations {
            if let recorded = done[m.version], recorded.checksum != m.checksum {
                throw StoreError.checksumMismatch(path: db.path, version: m.version, name: m.name)
            }
        }
        return done
    }

    /// The highest applied version (0 for an empty database).
    package func currentVersion(of db: SQLiteConnection) throws -> Int {
        try applied(in: db).keys.max() ?? 0
    }

    /// Applies what is pending. Returns the versions it applied (empty when up to date).
    @discardableResult
    package func migrate(_ db: SQLiteConnection) throws -> [Int] {
        try migrate(db, verified: verify(db))
    }

    /// Applies what is pending, given what `verify` just read on this connection (opening a
    /// database for a run verified it once and read it once: each pass is several statements).
    @discardableResult
    func migrate(_ db: SQLiteConnection, verified done: [Int: (name: String, checksum: String, appliedAt: String)]) throws -> [Int] {
        let pending = migrations.filter { done[$0.version] == nil }
        // Only pending ones take the write lock; an up-to-date database costs no more reads.
        // All of them in one transaction: a reader beside sees the schema as it was or as
        // it ends, never a version in between (it would be told to migrate a file a
        // recorder is migrating).
        let appliedNow = pending.isEmpty ? [] : try db.transaction { () -> [Int] in
            try db.execute(Self.bookkeeping)
            var applied: [Int] = []
            for m in pending {
                // Another process may have applied it while we waited for the lock.
                if try db.scalar("SELECT 1 FROM schema_migrations WHERE version = ?", [.init(m.version)]) != nil {
                    continue
                }
                try db.execute(m.sql)
                try db.run("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                           [.init(m.version), .text(m.name), .text(m.checksum), .text(Timestamp.now())])
                try db.execute("PRAGMA user_version = \(m.version)")
                applied.append(m.version)
            }
            return applied
        }
        try stamp(db)
        return appliedNow
    }
}
