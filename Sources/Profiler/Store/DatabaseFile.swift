import Foundation

/// What a database file looks like before SQLite touches it, so that an empty, foreign or
/// truncated file gets its own message and is never modified.
enum DatabaseFile {
    enum State: Equatable {
        case missing
        case empty
        case notSQLite
        case truncated(expected: Int, actual: Int)
        case plausible
    }

    /// Reads the 100-byte SQLite header: the magic string, the page size (offset 16) and
    /// the page count (offset 28). A healthy file is at least page size x page count long.
    static func inspect(_ path: String) -> State {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .missing }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size == 0 { return .empty }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .plausible }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return .notSQLite }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let expected = pageSize * pageCount
        return size < expected ? .truncated(expected: expected, actual: size) : .plausible
    }

    /// Throws the error that fits a file that cannot be a usable database.
    /// `allowEmpty`: an empty file may become a new database (recording into it).
    static func check(_ path: String, allowMissing: Bool, allowEmpty: Bool) throws {
        switch inspect(path) {
        case .missing where !allowMissing: throw StoreError.missingDatabase(path: path)
        case .empty where !allowEmpty: throw StoreError.emptyDatabase(path: path)
        case .notSQLite: throw StoreError.notADatabase(path: path)
        case .truncated(let expected, let actual): throw StoreError.truncatedDatabase(path: path, expected: expected, actual: actual)
        default: return
        }
    }
}
