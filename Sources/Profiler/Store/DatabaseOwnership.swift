import Foundation

/// Which application a SQLite file belongs to. profctl writes its own id into the header
/// (`PRAGMA application_id`, offset 68), so telling its files from another application's
/// costs one header read, and `file(1)` can name them too. Databases made before the id
/// are recognised by the migrator's own `schema_migrations` table, and stamped the next
/// time profctl writes to them.
extension Migrator {
    /// "prof" in ASCII.
    package static let applicationID: Int32 = 0x7072_6F66

    /// The id in the database's header (0 when none was ever set).
    static func applicationID(of db: SQLiteConnection) throws -> Int32 {
        Int32(truncatingIfNeeded: try db.scalar("PRAGMA application_id")?.int64 ?? 0)
    }

    /// Refuses a database that belongs to another application: a foreign application id,
    /// or, without one, tables but no profctl bookkeeping, or a user_version but no tables.
    /// An empty database is profctl's to create. Reads only.
    func checkOwnership(_ db: SQLiteConnection) throws {
        let id = try Self.applicationID(of: db)
        if id == Self.applicationID { return }
        if id != 0 {
            throw StoreError.foreignDatabase(path: db.path, reason: "its application id is \(id), profctl's is \(Self.applicationID)")
        }
        let tables = try db.rows("""
            SELECT name FROM sqlite_schema
            WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """).compactMap { $0.first?.string }
        if tables.isEmpty {
            // profctl sets user_version only together with its schema: a version without
            // any table was set by another application.
            let userVersion = try db.scalar("PRAGMA user_version")?.int64 ?? 0
            if userVersion != 0 {
                throw StoreError.foreignDatabase(path: db.path, reason: "its user_version is \(userVersion) but it holds no tables, and profctl sets one only with its schema")
            }
            return
        }
        // Other tools call their bookkeeping schema_migrations too: profctl's has these columns.
        let bookkeeping = try db.scalar("""
            SELECT count(*) FROM pragma_table_info('schema_migrations')
            WHERE name IN ('version', 'name', 'checksum', 'applied_at')
            """)?.int64 ?? 0
        if bookkeeping == 4 { return }
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw StoreError.foreignDatabase(path: db.path, reason: "it holds tables that are not profctl's (\(shown))")
    }

    /// Writes profctl's application id into a database it owns, when missing.
    func stamp(_ db: SQLiteConnection) throws {
        if try Self.applicationID(of: db) != Self.applicationID {
            try db.execute("PRAGMA application_id = \(Self.applicationID)")
        }
    }
}
