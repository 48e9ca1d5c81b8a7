import Foundation
import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

@Suite("Read-only query")
struct ReadOnlyQueryTests {
    private func database() throws -> (TemporaryDatabase, SQLiteConnection) {
        let temp = try TemporaryDatabase()
        _ = try ProfileStore.openForWriting(path: temp.path)
        return (temp, try ProfileStore.openForReading(path: temp.path))
    }

    @Test("statements that would write are refused with a clear message", arguments: [
        "INSERT INTO runs (run_id) VALUES ('x')",
        "DELETE FROM runs",
        "UPDATE runs SET status = 'complete'",
        "DROP VIEW savings",
        "CREATE TABLE mine (x INTEGER)",
        "ATTACH DATABASE '/tmp/profctl-attached.sqlite' AS other",
        "PRAGMA user_version = 7",
        "PRAGMA journal_mode = DELETE",
        "SELECT load_extension('/tmp/nothing.so')",
    ])
    func writesRefused(sql: String) throws {
        let (_, db) = try database()
        #expect(throws: StoreError.readOnlyViolation(sql: sql)) { _ = try ReadOnlyQuery.run(sql, on: db) }
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'savings'")?.int64 == 1)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/profctl-attached.sqlite"))
    }

    @Test("pragmas that only ask are allowed")
    func readingPragmas() throws {
        let (_, db) = try database()
        #expect(try ReadOnlyQuery.run("PRAGMA table_info(runs)", on: db).table.rows.count > 5)
        #expect(try ReadOnlyQuery.run("PRAGMA user_version", on: db).table.rows == [[.integer(Int64(Migrator().latestVersion))]])
    }

    @Test("a runaway query is stopped after the time limit")
    func runaway() throws {
        let (_, db) = try database()
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        let started = AllocationScope.monotonicNanoseconds()
        #expect(throws: StoreError.queryTimedOut(seconds: 0.2)) {
            _ = try ReadOnlyQuery.run(endless, on: db, limits: QueryLimits(seconds: 0.2))
        }
        #expect(AllocationScope.monotonicNanoseconds() - started < 5_000_000_000)
    }

    @Test("rows are capped and the result says so")
    func rowCap() throws {
        let (_, db) = try database()
        let many = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 50) SELECT i FROM n"
        let capped = try ReadOnlyQuery.run(many, on: db, limits: QueryLimits(maxRows: 10))
        #expect(capped.table.rows.count == 10 && capped.truncated)
        let all = try ReadOnlyQuery.run(many, on: db, limits: QueryLimits(maxRows: 50))
        #expect(all.table.rows.count == 50 && !all.truncated)
    }

    @Test("a second statement is refused rather than ignored")
    func oneStatementOnly() throws {
        let (_, db) = try database()
        #expect(throws: StoreError.multipleStatements(sql: "SELECT 1; DELETE FROM runs")) {
            _ = try ReadOnlyQuery.run("SELECT 1; DELETE FROM runs", on: db)
        }
        #expect(try ReadOnlyQuery.run("SELECT 1 AS one; -- a comment", on: db).table.rows == [[.integer(1)]])
    }

    @Test("reads return columns and typed values")
    func reads() throws {
        let (_, db) = try database()
        let table = try ReadOnlyQuery.run("SELECT 1 AS a, 2.5 AS b, 'x' AS c, NULL AS d", on: db).table
        #expect(table.columns == ["a", "b", "c", "d"])
        #expect(table.rows == [[.integer(1), .real(2.5), .text("x"), .null]])
    }
}

@Suite("Event buffer and recorder")
struct RecorderTests {
    @Test("a small buffer makes the producer wait and drops nothing, in order")
    func boundedAndLossless() throws {
        let buffer = EventBuffer(capacity: 8)
        let received = CollectingSink()
        let done = DispatchSemaphore(value: 0)
        let consumer = Thread {
            while true {
                let batch = buffer.popBatch(limit: 3)
                if batch.isEmpty { break }
                for case .event(_, let event) in batch { try? received.record(event) }
            }
            done.signal()
        }
        consumer.start()
        for i in 0..<5000 {
            try buffer.push(Event(kind: .create, component: "C", strategy: "s", repeatIndex: 0, instance: i,
                                  allocations: 0, frees: 0, requestedBytes: 0, usableBytes: 0, durationNanoseconds: 0))
        }
        buffer.close()
        done.wait()
        #expect(received.events.map(\.instance) == Array(0..<5000))
        #expect(buffer.accepted == 5000)
    }

    @Test("a writer failure reaches the producer instead of being swallowed")
    func failureReachesProducer() throws {
        let buffer = EventBuffer(capacity: 2)
        struct WriterBroke: Error {}
        buffer.fail(WriterBroke())
        #expect(throws: WriterBroke.self) {
            try buffer.push(Event(kind: .hit, component: "C", strategy: "s", repeatIndex: 0, instance: 0,
                                  allocations: 0, frees: 0, requestedBytes: 0, usableBytes: 0, durationNanoseconds: 0))
        }
    }

    @Test("every event kind round-trips through the recorder")
    func allKinds() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path, run: RunDescription(
            scenario: "kinds", baselineStrategy: "a", parameters: ["x": .int(1)]), bufferCapacity: 4)
        for (i, kind) in EventKind.allCases.enumerated() {
            try recorder.record(Event(kind: kind, component: "C", strategy: "a", repeatIndex: 0, instance: i,
                                      allocations: 1, frees: 0, requestedBytes: 10 * i, usableBytes: 16 * i,
                                      durationNanoseconds: 5))
        }
        let summary = try recorder.finish()
        #expect(summary.events == EventKind.allCases.count)
        let db = try ProfileStore.openForReading(path: temp.path)
        let kinds = try db.rows("SELECT kind FROM event_log ORDER BY seq").map { $0[0].string ?? "" }
        #expect(kinds == EventKind.allCases.map(\.rawValue))
        #expect(throws: RecorderError.self) { try recorder.finish() }
    }

    @Test("every column of every event is stored as recorded, across the writer's 64-row inserts and the rows left at a batch's end")
    func columnsRoundTrip() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path, run: RunDescription(
            scenario: "columns", baselineStrategy: "a", parameters: ["x": .int(1)]))
        // 1,000 events: at least one full 64-row insert whatever the batches, and a remainder.
        let count = 1000
        let events = (0..<count).map { i in
            Event(kind: i % 3 == 0 ? .create : .realize, component: i % 5 == 0 ? "C" : "D", strategy: "a",
                  repeatIndex: 0, instance: i, allocations: i % 7, frees: i % 11, requestedBytes: 100 + i,
                  usableBytes: 120 + 2 * i, durationNanoseconds: UInt64(1000 + i), startNanoseconds: 0)
        }
        for event in events { try recorder.record(event) }
        try recorder.finish()
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("""
            SELECT seq, kind, component, instance, allocations, frees, requested_bytes, usable_bytes, duration_ns
            FROM event_log ORDER BY seq
            """)
        try #require(rows.count == count)
        for (row, event) in zip(rows, events) {
            let expected: [SQLValue] = [
                row[0], .text(event.kind.rawValue), .text(event.component), .integer(Int64(event.instance)),
                .integer(Int64(event.allocations)), .integer(Int64(event.frees)), .integer(Int64(event.requestedBytes)),
                .integer(Int64(event.usableBytes)), .integer(Int64(event.durationNanoseconds)),
            ]
            #expect(row == expected)
        }
        #expect(rows.map { $0[0].int64 ?? -1 } == (0..<Int64(count)).map { $0 })
    }
}

@Suite("Event kinds")
struct EventKindTests {
    @Test("the codes events store match the event_kinds table of the migration")
    func codesMatchTheSchema() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        let table = try db.rows("SELECT kind_id, name FROM event_kinds ORDER BY kind_id")
        #expect(table == EventKind.allCases.map { [.integer($0.code), .text($0.rawValue)] })
    }
}
