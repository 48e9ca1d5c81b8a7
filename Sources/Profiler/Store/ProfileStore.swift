import CSQLite
import Foundation

/// Opens profctl databases the two ways the tool needs: for recording (created and
/// migrated as needed, WAL) and for reading (read-only, schema checked, never changed).
public enum ProfileStore {
    /// The database used when neither --db nor PROFCTL_DB says otherwise.
    public static let defaultPath = "profile.sqlite"

    public static func openForWriting(path: String, migrator: Migrator = Migrator()) throws -> SQLiteConnection {
        try openAndMigrate(path: path, migrator: migrator).connection
    }

    /// Opens for writing and says which migrations this call applied.
    public static func openAndMigrate(path: String, migrator: Migrator = Migrator()) throws
        -> (connection: SQLiteConnection, applied: [Int]) {
        try mapOpenErrors(path: path) {
            let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
            try migrator.verify(db)
            // WAL: readers never block the writer, and a crash loses at most the open transaction.
            if try db.scalar("PRAGMA journal_mode")?.string?.lowercased() != "wal" {
                try db.execute("PRAGMA journal_mode = WAL")
            }
            try db.execute("PRAGMA synchronous = NORMAL")
            return (db, try migrator.migrate(db))
        }
    }

    /// Opens an existing database read-only whatever its schema version, for looking
    /// at where it stands.
    public static func openForInspection(path: String) throws -> SQLiteConnection {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missingDatabase(path: path) }
        return try mapOpenErrors(path: path) {
            let db = try SQLiteConnection(path: path, mode: .readOnly)
            _ = try db.scalar("SELECT count(*) FROM sqlite_schema")
            return db
        }
    }

    /// Opens an existing database read-only. Refuses one whose schema is older (run
    /// `profctl migrate`) or newer (use a newer profctl) than this binary.
    public static func openForReading(path: String, migrator: Migrator = Migrator()) throws -> SQLiteConnection {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missingDatabase(path: path) }
        return try mapOpenErrors(path: path) {
            let db = try SQLiteConnection(path: path, mode: .readOnly)
            try migrator.verify(db)
            let version = try migrator.currentVersion(of: db)
            if version < migrator.latestVersion {
                throw StoreError.needsMigration(path: path, found: version, latest: migrator.latestVersion)
            }
            return db
        }
    }

    /// Turns SQLite's "file is not a database" into a message that names the file.
    static func mapOpenErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.primaryCode == SQLITE_NOTADB || error.primaryCode == SQLITE_CORRUPT {
            throw StoreError.notADatabase(path: path)
        }
    }
}
