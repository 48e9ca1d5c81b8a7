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
                                  allocations: 0, frees: 0, netLiveBytes: 0, netLiveUsableBytes: 0, durationNanoseconds: 0))
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
                                  allocations: 0, frees: 0, netLiveBytes: 0, netLiveUsableBytes: 0, durationNanoseconds: 0))
        }
    }

    @Test("events handed over in chunks keep their order around markers, count in progress before the hand-over, and the partial chunk reaches the writer at close")
    func chunkedHandOver() throws {
        let buffer = EventBuffer(capacity: 65_536)
        func event(_ i: Int, _ component: String = "C") -> Event {
            Event(kind: .create, component: component, strategy: "s", repeatIndex: 0, instance: i,
                  allocations: 0, frees: 0, netLiveBytes: 0, netLiveUsableBytes: 0, durationNanoseconds: 0)
        }
        let first = EventBuffer.chunkSize + 7
        for i in 0..<first { try buffer.push(event(i)) }
        try buffer.push(marker: .step("second"))
        for i in first..<(first + 5) { try buffer.push(event(i, "D")) }
        // Five events wait in the producers' chunk: the progress display counts them already.
        let progress = buffer.progress
        #expect(progress.events == first + 5)
        #expect(progress.created == first + 5)
        #expect(progress.component == "D")
        buffer.close()
        var items: [BufferedItem] = []
        while true {
            let batch = buffer.popBatch(limit: 100)
            if batch.isEmpty { break }
            items += batch
        }
        var order: [String] = []
        for item in items {
            switch item {
            case .event(let seq, let e): order.append("\(seq):\(e.instance)")
            case .step(let name): order.append(name)
            default: order.append("?")
            }
        }
        #expect(order == (0..<first).map { "\($0):\($0)" } + ["second"] + (first..<(first + 5)).map { "\($0):\($0)" })
    }

    @Test("two threads recording at once lose no event and get distinct places in the order")
    func twoProducers() throws {
        let buffer = EventBuffer(capacity: 512)
        let received = CollectingSink()
        let seqs = SeqLog()
        let consumed = DispatchSemaphore(value: 0)
        let consumer = Thread {
            while true {
                let batch = buffer.popBatch(limit: 1000)
                if batch.isEmpty { break }
                for case .event(let seq, let event) in batch {
                    seqs.values.append(seq)
                    try? received.record(event)
                }
            }
            consumed.signal()
        }
        consumer.start()
        let perThread = 20_000
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for i in 0..<perThread {
                try? buffer.push(Event(kind: .hit, component: "C", strategy: "s", repeatIndex: thread, instance: i,
                                       allocations: 0, frees: 0, netLiveBytes: 0, netLiveUsableBytes: 0, durationNanoseconds: 0))
            }
        }
        buffer.close()
        consumed.wait()
        #expect(buffer.accepted == Int64(2 * perThread))
        // The writer gets the events in the order of their places (seq), none twice.
        #expect(seqs.values == (0..<Int64(2 * perThread)).map { $0 })
        for thread in 0..<2 {
            // Each thread's events arrive in the order that thread recorded them.
            #expect(received.events.filter { $0.repeatIndex == thread }.map(\.instance) == Array(0..<perThread))
        }
        #expect(buffer.sawSeveralRepeats)
    }

    @Test("every event kind round-trips through the recorder")
    func allKinds() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path, run: RunDescription(
            scenario: "kinds", baselineStrategy: "a", parameters: ["x": .int(1)]), bufferCapacity: 4)
        for (i, kind) in EventKind.allCases.enumerated() {
            try recorder.record(Event(kind: kind, component: "C", strategy: "a", repeatIndex: 0, instance: i,
                                      allocations: 1, frees: 0, netLiveBytes: 10 * i, netLiveUsableBytes: 16 * i,
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
                  repeatIndex: 0, instance: i, allocations: i % 7, frees: i % 11, netLiveBytes: 100 + i,
                  netLiveUsableBytes: 120 + 2 * i, durationNanoseconds: UInt64(1000 + i), startNanoseconds: 0)
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
                .integer(Int64(event.allocations)), .integer(Int64(event.frees)), .integer(Int64(event.netLiveBytes)),
                .integer(Int64(event.netLiveUsableBytes)), .integer(Int64(event.durationNanoseconds)),
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

    @Test("docs/schema.md lists every kind with the code events store")
    func codesMatchTheSchemaDoc() throws {
        let doc = try String(contentsOf: SchemaDocTests.schemaDoc, encoding: .utf8)
        let start = try #require(doc.range(of: "`event_kinds (kind_id, name)` holds"))
        let paragraph = doc[start.upperBound...].prefix { $0 != "#" }.replacingOccurrences(of: "\n", with: " ")
        for kind in EventKind.allCases {
            #expect(paragraph.contains("\(kind.code) `\(kind.rawValue)`"), "\(kind) is not listed as \(kind.code) in docs/schema.md")
        }
    }
}

/// The places the consumer thread of a test saw, read after it signalled.
private final class SeqLog: @unchecked Sendable {
    var values: [Int64] = []
}
