import Foundation
import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerHooks
@testable import ProfilerOutputs
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

@Suite("Database file inspection before open")
struct DatabaseFileTests {
    /// A real database cut in half: its header promises more pages than the file has.
    func cutShortDatabase(in temp: TemporaryDatabase) throws {
        do {
            let connection = try SQLiteConnection(path: temp.path, mode: .readWriteCreate)
            try connection.execute("PRAGMA journal_mode = DELETE")
            try connection.execute("CREATE TABLE t (x BLOB)")
            for _ in 0..<20 { try connection.execute("INSERT INTO t VALUES (zeroblob(4000))") }
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: temp.path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: temp.path))
    }

    func isTruncated(_ path: String) -> Bool {
        if case .truncated = DatabaseFile.inspect(path) { return true }
        return false
    }

    @Test("a file shorter than its header says is truncated, unless a write-ahead log beside it holds the rest")
    func writeAheadLogCompletesTheFile() throws {
        let temp = try TemporaryDatabase()
        try cutShortDatabase(in: temp)
        #expect(isTruncated(temp.path))
        // What another process's checkpoint looks like from outside: page 1 with the new
        // page count is written before the pages that lengthen the file, the log beside it.
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: temp.path + "-wal"))
        #expect(DatabaseFile.inspect(temp.path) == .plausible)
        // An empty log (left by a truncating checkpoint) holds nothing: truncated again.
        try Data().write(to: URL(fileURLWithPath: temp.path + "-wal"))
        #expect(isTruncated(temp.path))
    }
}
