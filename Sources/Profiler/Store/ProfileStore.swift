import CSQLite
import Foundation
import ProfilerSupport

/// Opens profctl databases the two ways the tool needs: for recording (created and
/// migrated as needed, WAL) and for reading (read-only, schema checked, never changed).
package enum ProfileStore {
    /// The database used when neither --db nor PROFCTL_DB says otherwise.
    package static let defaultPath = "profile.sqlite"

    /// How long a recording connection waits for the write lock before failing. SQLite's
    /// lock is not a queue: a waiter sleeps and retries, and other writers may take the
    /// lock in between. 8 recorders on one file under a load of 26 on 2 cores left one
    /// waiting more than 10 s (the default of reading connections), and its run failed
    /// with "database is locked"; a minute covers that with room to spare.
    static let writerBusyTimeoutMilliseconds: Int32 = 60_000

    /// Opens for recording: created and migrated as needed, and `views` (report views
    /// declared by scenarios) created or brought up to date.
    package static func openForWriting(path: String, migrator: Migrator = Migrator(),
                                      views: [RepeatableView] = []) throws -> SQLiteConnection {
        try openAndMigrate(path: path, migrator: migrator, views: views).connection
    }

    /// Opens an existing database to change what it already holds (a baseline label):
    /// a missing file is not created and an empty one is not given a schema; both are
    /// refused as a reading command refuses them.
    package static func openExistingForWriting(path: String) throws -> SQLiteConnection {
        try DatabaseFile.check(path, allowMissing: false, allowEmpty: false)
        return try openForWriting(path: path)
    }

    /// Opens for writing and says which migrations this call applied.
    package static func openAndMigrate(path: String, migrator: Migrator = Migrator(), views: [RepeatableView] = []) throws
        -> (connection: SQLiteConnection, applied: [Int]) {
        try DatabaseFile.check(path, allowMissing: true, allowEmpty: true)
        return try mapOpenErrors(path: path) {
            var createdWhole: [Int] = []
            if case .missing = DatabaseFile.inspect(path), !ReaderOpening.isURI(path) {
                createdWhole = createWhole(at: path, migrator: migrator, views: views)
            }
            let db = try SQLiteConnection(path: path, mode: .readWriteCreate,
                                          busyTimeoutMilliseconds: writerBusyTimeoutMilliseconds)
            // Before anything is written (WAL, schema): another application's file is refused untouched.
            let verified = try migrator.verify(db)
            // WAL: readers never block the writer, and a crash loses at most the open transaction.
            if try db.scalar("PRAGMA journal_mode")?.string?.lowercased() != "wal" {
                try db.execute("PRAGMA journal_mode = WAL")
            }
            try db.execute("PRAGMA synchronous = NORMAL")
            let applied = try migrator.migrate(db, verified: verified)
            try ReportViews.install(views, in: db)
            try markAbandonedRuns(db)
            return (db, createdWhole + applied)
        }
    }

    /// Makes a database that does not exist yet under a temporary name beside `path` and
    /// links it into place complete, so a reader beside the first recorder finds no file
    /// or the whole schema, never an empty file or one half made (it would be told to
    /// migrate a file a recorder is creating). The draft is migrated in rollback-journal
    /// mode and switched to WAL last, so its main file holds everything when it closes.
    /// Two first recorders each make one: link(2) never replaces a file, the first wins and
    /// the other's draft is dropped. Anything that goes wrong here (a folder that cannot
    /// be written, a file system without hard links) leaves the file to be created in
    /// place as before, where the error names the path the user gave.
    /// Returns the migrations applied, empty when another process's file won.
    static func createWhole(at path: String, migrator: Migrator, views: [RepeatableView]) -> [Int] {
        let draft = "\(path).creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { DatabaseFile.remove(draft) }
        do {
            let db = try SQLiteConnection(path: draft, mode: .readWriteCreate)
            defer { db.close() }
            let applied = try migrator.migrate(db)
            try ReportViews.install(views, in: db)
            try db.execute("PRAGMA journal_mode = WAL")
            db.close()
            return link(draft, path) == 0 ? applied : []
        } catch {
            return []
        }
    }

    /// Marks as aborted the runs of this host still `running` whose recording process is
    /// gone (killed, crashed): they would otherwise look unfinished forever.
    static func markAbandonedRuns(_ db: SQLiteConnection) throws {
        for key in try abandonedRuns(db) {
            try db.run("""
                UPDATE runs SET status = 'aborted', ended_at = ?,
                       error = 'the recording process (pid ' || process_id || ' on ' || host || ') ended before the run was finished'
                WHERE run_key = ? AND status = 'running'
                """, [.text(Timestamp.now()), .integer(key)])
        }
    }

    /// Runs of this host still `running` whose recording process is gone.
    static func abandonedRuns(_ db: SQLiteConnection) throws -> [Int64] {
        let host = ProcessInfo.processInfo.hostName
        return try db.rows("SELECT run_key, process_id FROM runs WHERE status = 'running' AND host = ?", [.text(host)])
            .compactMap { row in
                guard let key = row[0].int64, let pid = row[1].int64, pid != Int64(getpid()), !processIsAlive(pid) else { return nil }
                return key
            }
    }

    static func processIsAlive(_ pid: Int64) -> Bool {
        guard let id = pid_t(exactly: pid), id > 0 else { return false }
        return kill(id, 0) == 0 || errno == EPERM
    }

    /// Whether `path` may hold a SQLite database (a regular file with SQLite's header, or one
    /// that cannot be looked at), read without SQLite: what a report written to a path must
    /// never replace. A named pipe or a device is never opened.
    package static func mayHoldDatabase(at path: String) -> Bool {
        switch DatabaseFile.inspect(path) {
        case .plausible, .truncated: true
        case .missing, .notAFile, .empty, .notSQLite: false
        }
    }

    /// Opens an existing database read-only whatever its schema version, for looking
    /// at where it stands.
    package static func openForInspection(path: String) throws -> SQLiteConnection {
        try DatabaseFile.check(path, allowMissing: false, allowEmpty: false)
        return try mapOpenErrors(path: path) {
            let db = try SQLiteConnection(path: path, mode: .readOnly)
            try requireIntact(db)
            try Migrator().checkOwnership(db)
            return db
        }
    }

    /// Opens an existing database read-only. Refuses one whose schema is older (run
    /// `profctl migrate`) or newer (use a newer profctl) than this binary.
    /// Runs left `running` by a process that is gone are marked aborted first, when the
    /// file is writable: the one change a reading command makes, as SQLite itself
    /// recovers a hot journal on open.
    /// `repairAbandoned: false` leaves the file untouched whatever it holds (merge's inputs).
    package static func openForReading(path: String, migrator: Migrator = Migrator(), repairAbandoned: Bool = true) throws -> SQLiteConnection {
        try DatabaseFile.check(path, allowMissing: false, allowEmpty: false)
        return try mapOpenErrors(path: path) {
            let db = try SQLiteConnection(path: path, mode: .readOnly)
            try requireIntact(db)
            try migrator.verify(db)
            let version = try migrator.currentVersion(of: db)
            if version < migrator.latestVersion {
                throw StoreError.needsMigration(path: path, found: version, latest: migrator.latestVersion)
            }
            // A writer is opened only when there is something to repair.
            if repairAbandoned, try !abandonedRuns(db).isEmpty, FileManager.default.isWritableFile(atPath: path),
               let writer = try? SQLiteConnection(path: path, mode: .readWrite) {
                try? markAbandonedRuns(writer)
            }
            return db
        }
    }

    /// Refuses a file whose pages SQLite finds damaged, before any figure is read from it:
    /// a damaged b-tree page does not always make a query fail, it can hide its rows (an
    /// `events` page whose cell count was changed: 7,072 events counted of 7,200, and a
    /// leak reported that is not there). `quick_check` walks every page of every table
    /// and index once, without comparing indexes to their tables (`integrity_check`
    /// does that too). Its cost follows the file's size, not the run read (about 1 s of
    /// CPU for a 222 MB history, docs/reliability.md), so it runs on open for files up to
    /// ``quickCheckLimit``; in a larger file, damage is found where a query meets it
    /// (exit 3 all the same, SQLiteConnection).
    static func requireIntact(_ db: SQLiteConnection) throws {
        var info = stat()
        guard stat(db.path, &info) == 0, Int64(info.st_size) <= quickCheckLimit else { return }
        // SQLite heads its findings with "*** in database main ***": the message names the file instead.
        let findings = try db.rows("PRAGMA quick_check(3)").compactMap { $0.first?.string }.filter { !$0.hasPrefix("***") }
        guard findings != ["ok"] else { return }
        throw StoreError.damagedDatabase(path: db.path, detail: findings.joined(separator: "; "))
    }

    /// The largest file checked on open: 64 MiB.
    package static let quickCheckLimit: Int64 = 64 << 20

    /// Turns SQLite's "file is not a database" into a message that names the file.
    static func mapOpenErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.primaryCode == SQLITE_NOTADB || error.primaryCode == SQLITE_CORRUPT {
            throw StoreError.notADatabase(path: path)
        }
    }
}
