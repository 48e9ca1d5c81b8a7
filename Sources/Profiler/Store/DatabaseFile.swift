import Foundation

/// What a database file looks like before SQLite touches it, so that an empty, foreign or
/// truncated file gets its own message and is never modified.
enum DatabaseFile {
    enum State: Equatable {
        case missing
        /// A directory, a named pipe, a symbolic link loop, a device: `kind` says which.
        case notAFile(kind: String)
        case empty
        case notSQLite
        case truncated(expected: Int, actual: Int)
        case plausible
    }

    /// Reads the 100-byte SQLite header: the magic string, the page size (offset 16) and
    /// the page count (offset 28). A healthy file is at least page size x page count long.
    /// What is not a regular file is told apart first: opening a named pipe to read its
    /// header would wait for a writer forever.
    static func inspect(_ path: String) -> State {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ELOOP: return .notAFile(kind: "a symbolic link loop (following it never reaches a file)")
            case ENOENT: return .missing
            default: return .plausible  // SQLite reports it (a permission, a path through a file)
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .notAFile(kind: "a directory")
        case S_IFIFO: return .notAFile(kind: "a named pipe (FIFO)")
        case S_IFSOCK: return .notAFile(kind: "a socket")
        default: return .notAFile(kind: "a device")
        }
        // A write-ahead log beside the file holds pages the file does not have yet: a
        // checkpoint (another process's, or one interrupted) writes page 1 with the new
        // page count before the pages that lengthen the file. Looked at before and after.
        let logBefore = hasWriteAheadLog(path)
        let size = Int(info.st_size)
        if size == 0 { return .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .plausible }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return .notSQLite }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let expected = pageSize * pageCount
        guard size < expected, !logBefore, !hasWriteAheadLog(path) else { return .plausible }
        return .truncated(expected: expected, actual: size)
    }

    /// A non-empty `-wal` file beside the database: SQLite completes the file from it.
    static func hasWriteAheadLog(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    /// Throws the error that fits a file that cannot be a usable database.
    /// `allowEmpty`: an empty file may become a new database (recording into it).
    static func check(_ path: String, allowMissing: Bool, allowEmpty: Bool) throws {
        switch inspect(path) {
        case .missing where !allowMissing: throw StoreError.missingDatabase(path: path)
        case .notAFile(let kind): throw StoreError.notAFile(path: path, kind: kind)
        case .empty where !allowEmpty: throw StoreError.emptyDatabase(path: path)
        case .notSQLite: throw StoreError.notADatabase(path: path)
        case .truncated(let expected, let actual): throw StoreError.truncatedDatabase(path: path, expected: expected, actual: actual)
        default: return
        }
    }

    /// Removes a database this process created, with SQLite's files beside it. Call it
    /// only after every connection to it is closed.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
