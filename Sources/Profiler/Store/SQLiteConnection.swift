import CSQLite
import Foundation
import ProfilerHooks
import ProfilerModel

/// One connection to one SQLite file. It owns the handle and closes it when released.
/// Not thread-safe: each thread that needs the database opens its own connection.
package final class SQLiteConnection {
    package enum Mode: Sendable {
        /// Reading only; the file must exist. Writes are refused by SQLite itself
        /// (`query_only`). It reads a file it cannot write and leaves no `-wal` or `-shm`
        /// behind: ``ReaderOpening`` says how.
        case readOnly
        /// Reading and writing; the file is created when missing.
        case readWriteCreate
        /// Reading and writing an existing file.
        case readWrite
    }

    let handle: OpaquePointer
    package let path: String
    package let mode: Mode
    /// A reader that created the `-wal` and `-shm` beside the file removes them (``ReaderOpening``).
    private let removesFilesBeside: Bool

    /// Process-wide settings made once, before SQLite's first use (see the shim).
    private static let configured: Int32 = profctl_sqlite3_disable_memory_statistics()

    package init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        _ = Self.configured
        var db: OpaquePointer?
        let reading = mode == .readOnly ? ReaderOpening.choose(for: path) : nil
        let (name, flags): (String, Int32) = switch mode {
        case .readOnly: (reading ?? .cleaningUp).open(path)
        case .readWriteCreate: (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        case .readWrite: (path, SQLITE_OPEN_READWRITE)
        }
        removesFilesBeside = reading == .cleaningUp && !ReaderOpening.isURI(path) && !ReaderOpening.hasFilesBeside(path)
        // URI filenames let `merge` attach its inputs with ?mode=ro; plain paths are unaffected.
        let code = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: message)
        }
        self.handle = db
        self.path = path
        self.mode = mode
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        profctl_sqlite3_disable_dqs(db)
        _ = profctl_sqlite3_disable_extension_loading(db)
        if mode == .readOnly {
            try execute("PRAGMA query_only = ON")
            // Big GROUP BYs and ORDER BYs sort; let the sorter use every core.
            try execute("PRAGMA threads = \(ProcessInfo.processInfo.activeProcessorCount)")
        } else {
            try execute("PRAGMA foreign_keys = ON")
        }
    }

    /// Set by `close()`; the handle is gone and every later call throws.
    private var isClosed = false

    deinit { close() }

    /// Closes the handle now rather than when the last reference goes. A writer must
    /// close before its process exits: only the last connection's close checkpoints a WAL
    /// database into its main file and removes the `-wal` and `-shm` files, and a
    /// reference still held elsewhere (another thread's closure) may outlive `exit()`.
    /// Statements still open keep SQLite's side alive until they are finalized.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        ReaderOpening.closeInTurn(handle, path: path)
        if removesFilesBeside, ReaderOpening.hasFilesBeside(path) { ReaderOpening.removeLeftovers(of: path) }
    }

    private func requireOpen(_ sql: String?) throws {
        if isClosed { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection to \(path) is already closed", sql: sql) }
    }

    /// The error for a failed call. SQLITE_CORRUPT (a page SQLite could not make sense of,
    /// met mid-query) is the file's fault, not the statement's: it names the file, so a
    /// reading command stops with exit 3 instead of printing the rows it got so far.
    func error(_ code: Int32, sql: String?) -> any Error {
        Self.failure(code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path)
    }

    static func failure(_ code: Int32, message: String, sql: String?, path: String) -> any Error {
        if code & 0xFF == SQLITE_CORRUPT { return StoreError.damagedDatabase(path: path, detail: message) }
        return SQLiteError(code: code, message: message, sql: sql)
    }

    /// Runs one or more statements that return nothing of interest.
    package func execute(_ sql: String) throws {
        try requireOpen(sql)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw Self.failure(code, message: text, sql: sql, path: path)
        }
    }

    /// Prepares exactly one statement. Text after it (other than blanks and comments)
    /// is an error, so a second statement is never silently ignored.
    package func prepare(_ sql: String) throws -> Statement {
        try requireOpen(sql)
        var statement: OpaquePointer?
        var leftover = ""
        let code = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle, start, -1, 0, &statement, &tail)
            if let tail { leftover = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement found", sql: sql)
        }
        let result = Statement(connection: self, handle: statement, sql: sql)
        if containsStatement(leftover) { throw StoreError.multipleStatements(sql: sql) }
        return result
    }

    /// Whether SQL text holds anything but whitespace, comments and semicolons.
    /// Preparing (never running) it tells exactly: SQLite yields no statement for those.
    private func containsStatement(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        var probe: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, text, -1, &probe, nil)
        defer { sqlite3_finalize(probe) }
        return code != SQLITE_OK || probe != nil
    }

    /// Rows of one statement with bound values.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try prepare(sql).rows(values)
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try rows(sql, values).first?.first
    }

    package func run(_ sql: String, _ values: [SQLValue] = []) throws {
        try prepare(sql).run(values)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// Immediate transactions take the write lock up front, so they never fail half-way
    /// with SQLITE_BUSY after doing work.
    package func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    package var changes: Int { Int(sqlite3_changes(handle)) }

    // MARK: Guards for analysts' SQL

    /// Refuses, at prepare time, anything that could change a database or reach outside
    /// it: writes, ATTACH and DETACH, pragmas that set a value, and load_extension.
    package func denyWritesAndEscapes() {
        sqlite3_set_authorizer(handle, { _, action, first, second, _, _ in
            switch action {
            case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE, SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
                return SQLITE_OK
            case SQLITE_FUNCTION:
                let name = second.map { String(cString: $0).lowercased() } ?? ""
                return name == "load_extension" ? SQLITE_DENY : SQLITE_OK
            case SQLITE_PRAGMA:
                // A pragma with a value either sets something or asks about a table;
                // only the asking kind is allowed.
                guard second != nil else { return SQLITE_OK }
                let name = first.map { String(cString: $0).lowercased() } ?? ""
                return SQLiteConnection.readOnlyPragmas.contains(name) ? SQLITE_OK : SQLITE_DENY
            default:
                return SQLITE_DENY
            }
        }, nil)
    }

    static let readOnlyPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
        "foreign_key_list", "integrity_check", "quick_check",
    ]

    /// Interrupts any statement still running `seconds` from now; nil removes the limit.
    package func limitRunningTime(to seconds: Double?) {
        guard let seconds else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            deadline = nil
            return
        }
        // At most a year, and never NaN or infinite: converting those to nanoseconds would trap.
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 86_400)
        let box = Deadline(nanoseconds: AllocationScope.monotonicNanoseconds() + UInt64(bounded * 1e9))
        deadline = box
        // Every 10,000 virtual machine instructions: cheap, and fine-grained enough.
        sqlite3_progress_handler(handle, 10_000, { context in
            guard let context else { return 0 }
            let deadline = Unmanaged<Deadline>.fromOpaque(context).takeUnretainedValue()
            return AllocationScope.monotonicNanoseconds() > deadline.nanoseconds ? 1 : 0
        }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Kept alive by the connection while the progress handler may read it.
    private var deadline: Deadline?
}

final class Deadline {
    let nanoseconds: UInt64
    init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
}
