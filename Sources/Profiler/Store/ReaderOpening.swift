import CSQLite
import Foundation

/// How a reading connection opens a file so that it reads wherever the file is kept and
/// leaves nothing beside it.
///
/// A WAL database's readers share the `-wal` and `-shm` files beside it. SQLite creates
/// them on the first read and only the last connection to close may remove them, and only
/// through a handle that can write. So:
/// - File and folder writable: open read-write with `query_only` (SQLiteConnection), so
///   the last connection removes them; see ``removeLeftovers(of:)`` for two closing at once.
/// - Not writable (an archived CI artifact, a read-only folder or mount, another user's
///   file) and a `-wal` or `-shm` is there: a writer is at work, or one crashed. `mode=ro`
///   reads its log through the shared memory it keeps, and creates nothing.
/// - Not writable and neither is there: no writer holds pages outside the main file, and
///   the file is read as `immutable=1`, without locks or a `-shm` (SQLite 3.40 can open a
///   WAL database in a folder it cannot write in no other way: it would create the `-wal`,
///   and in a writable folder a read-only handle leaves both behind, read-only, so the
///   next `record` fails). The limit: a writer that starts on that same file while the
///   read runs (only its owner or root can) is not seen, and a checkpoint it makes in the
///   meantime could be read half-way.
enum ReaderOpening: Equatable {
    case cleaningUp
    case readOnlyBesideWriter
    case immutable

    static func choose(for path: String) -> ReaderOpening {
        if canCleanUpBeside(path) { return .cleaningUp }
        return hasFilesBeside(path) ? .readOnlyBesideWriter : .immutable
    }

    /// Whether a plain path's file and folder are writable (a URI keeps the mode it asks for).
    static func canCleanUpBeside(_ path: String) -> Bool {
        guard !isURI(path) else { return true }
        let folder = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }

    static func isURI(_ path: String) -> Bool { path.hasPrefix("file:") }

    /// A `-wal` or `-shm` beside the file.
    static func hasFilesBeside(_ path: String) -> Bool {
        ["-wal", "-shm"].contains { access(path + $0, F_OK) == 0 }
    }

    /// The name and flags handed to `sqlite3_open_v2`.
    func open(_ path: String) -> (name: String, flags: Int32) {
        switch self {
        case .cleaningUp: (path, Self.isURI(path) ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
        case .readOnlyBesideWriter: (Self.uri(path) + "?mode=ro", SQLITE_OPEN_READONLY)
        case .immutable: (Self.uri(path) + "?mode=ro&immutable=1", SQLITE_OPEN_READONLY)
        }
    }

    /// A plain path as a `file:` URI: `%`, `?` and `#` escaped, the rest as it is.
    static func uri(_ path: String) -> String {
        var text = "file:"
        for character in path {
            switch character {
            case "%": text += "%25"
            case "?": text += "%3f"
            case "#": text += "%23"
            default: text.append(character)
            }
        }
        return text
    }

    /// Closes a handle that may be the last on its file, one profctl connection of the
    /// folder at a time. Only the last connection to close removes the `-wal` and `-shm`,
    /// and two closing at the same moment each see the other still open, so neither does
    /// (found in the fault campaign under load: 8 reports closing together left both files,
    /// which a few retries after short pauses did not always mend). In turn, the later one
    /// sees the earlier gone. The turn is an flock(2) on the folder, not on the database:
    /// closing a descriptor of the database file would drop this process's POSIX locks on
    /// it, which SQLite's other connections rely on; flock and POSIX locks do not meet.
    static func closeInTurn(_ handle: OpaquePointer?, path: String) {
        let folder = isURI(path) ? nil : (path as NSString).deletingLastPathComponent
        let fd = folder.map { Glibc.open($0.isEmpty ? "." : $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } ?? -1
        if fd >= 0 { _ = flockRetryingInterrupts(fd, LOCK_EX) }
        sqlite3_close_v2(handle)
        if fd >= 0 {
            _ = flock(fd, LOCK_UN)
            Glibc.close(fd)
        }
    }

    private static func flockRetryingInterrupts(_ fd: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = flock(fd, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// Called after a cleaning-up reader closed, when `-wal` or `-shm` are still there and
    /// it created them: a connection of another program (the sqlite3 shell) may have
    /// closed beside it out of turn. Reopening and closing again, a few times after short
    /// random pauses, makes one of them the last. A connection still open elsewhere (a
    /// writer, a reader that will close later and remove them itself) keeps them, as it
    /// should.
    static func removeLeftovers(of path: String, attempts: Int = 5) {
        for _ in 0..<attempts where hasFilesBeside(path) {
            usleep(UInt32.random(in: 2_000...20_000))
            var db: OpaquePointer?
            guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
                sqlite3_close_v2(db)
                return
            }
            // A read opens the log; the close then checkpoints and removes it when it is the last.
            sqlite3_exec(db, "PRAGMA query_only = ON; SELECT count(*) FROM sqlite_schema", nil, nil, nil)
            closeInTurn(db, path: path)
        }
    }
}
