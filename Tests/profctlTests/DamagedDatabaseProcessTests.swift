import Foundation
import Profiler
import ProfilerCLI
import Testing

/// A file SQLite calls damaged never gives figures with exit 0: found on open
/// (`PRAGMA quick_check`) or where a query meets it, every reading command exits 3 and
/// names the file (docs/reliability.md).
@Suite("damaged databases")
struct DamagedDatabaseProcessTests {
    /// Records a run, then changes the cell count of one `events` leaf page, as the fault
    /// campaign did: SQLite then hides that page's rows instead of failing (7,072 events
    /// of 7,200), and only its checks see the damage.
    static func damagedHistory(in folder: TemporaryFolder, cellsHidden: Int = 15) throws -> URL {
        let result = try ProfctlProcess.run(["record", "lazy-container", "--instances", "300", "--quiet", "--db", "d.sqlite"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let url = folder.url.appendingPathComponent("d.sqlite")
        try changeLeafPage(of: url) { page, header in
            let cells = Int(page[header + 3]) << 8 | Int(page[header + 4])
            page[header + 3] = UInt8((cells - cellsHidden) >> 8)
            page[header + 4] = UInt8((cells - cellsHidden) & 0xFF)
        }
        return url
    }

    /// Rewrites the second leaf page of `events` with `change` (the page's bytes, and where
    /// its b-tree header starts).
    static func changeLeafPage(of url: URL, _ change: (inout [UInt8], Int) -> Void) throws {
        let (pageNumber, pageSize): (Int64, Int64) = try {
            let db = try SQLiteConnection(path: url.path, mode: .readOnly)
            defer { db.close() }
            let number = try #require(try db.scalar(
                "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 1")?.int64)
            return (number, try #require(try db.scalar("PRAGMA page_size")?.int64))
        }()
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((pageNumber - 1) * pageSize))
        var page = [UInt8](try #require(try handle.read(upToCount: Int(pageSize))))
        change(&page, pageNumber == 1 ? 100 : 0)
        try handle.seek(toOffset: UInt64((pageNumber - 1) * pageSize))
        try handle.write(contentsOf: Data(page))
    }

    static let readingCommands: [[String]] = [
        ["query", "SELECT count(*) FROM events"], ["export", "--run", "latest"], ["report"], ["check", "--leaks"],
        ["runs"], ["sites"], ["trend", "--scenario", "lazy-container", "--component", "Label", "--strategy", "eager",
                              "--metric", "bytes_per_instance"], ["compare", "latest", "latest"], ["migrate", "--status"],
    ]

    @Test("an events page with a changed cell count: every reading command exits 3 naming the file, prints no figure, changes nothing")
    func damagedOnOpen() throws {
        let folder = try TemporaryFolder()
        let url = try Self.damagedHistory(in: folder)
        let before = try Data(contentsOf: url)
        for arguments in Self.readingCommands {
            let result = try ProfctlProcess.run(arguments + ["--db", "d.sqlite"], in: folder.url)
            #expect(result.status == 3, "\(arguments): exit \(result.status), \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) printed figures: \(result.stdout.prefix(300))")
            #expect(result.stderr.contains("d.sqlite is damaged"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("SQLite error"), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("damage a query meets (a file too large to check on open): exit 3 naming the file, not exit 1 with raw SQL")
    func damagedMidRead() throws {
        let folder = try TemporaryFolder()
        let url = try Self.damagedHistory(in: folder, cellsHidden: 0)
        // A leaf page whose type byte is not a b-tree page's: SQLITE_CORRUPT when a scan reaches it.
        try Self.changeLeafPage(of: url) { page, header in page[header] = 0x07 }
        // Opened as a reader of a large file is (no check on open), then read through.
        let db = try SQLiteConnection(path: url.path, mode: .readOnly)
        let error = try #require(throws: (any Error).self) { _ = try db.rows("SELECT sum(requested_bytes) FROM events") }
        #expect(error as? StoreError == .damagedDatabase(path: url.path, detail: "database disk image is malformed"), "\(error)")
        #expect(ExitCodes.code(for: error) == ExitCodes.notADatabase)
        #expect("\(error)".contains("\(url.path) is damaged"))
    }
}
