import Foundation
import ProfilerPostgres
import Testing

/// `profctl push` into a real PostgreSQL server (scripts/pg-test-cluster), as a process.
@Suite("push to PostgreSQL", .serialized)
struct PostgresPushTests {
    static func push(_ db: String, to url: String, _ extra: [String] = [], in folder: TemporaryFolder) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(["push", "--db", db, "--to", url] + extra, in: folder.url)
    }

    static func count(_ table: String, in store: PostgresConnection) throws -> Int64 {
        try store.scalar("SELECT count(*) FROM \(table)")?.int64 ?? -1
    }

    static func localCount(_ sql: String, _ path: URL) throws -> Int64 {
        let shell = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), [path.path, sql], in: path.deletingLastPathComponent())
        return Int64(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static let tables = ["runs", "event_series", "events", "rollups", "steps", "samples", "metrics", "step_rollups", "latency_rollups",
                         "lifetime_rollups", "size_class_rollups"]

    @Test("every table of every complete run lands; pushing twice adds nothing; the local file is unchanged", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func pushTwice() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--repeat", "2"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["image-cache", "lazy-list"], db: "local.sqlite", in: folder)
        let local = folder.url.appendingPathComponent("local.sqlite")
        #expect(try ProfctlProcess.run(["baseline", "set", "main"], environment: ["PROFCTL_DB": local.path], in: folder.url).status == 0)
        let before = try Data(contentsOf: local)

        let first = try Self.push("local.sqlite", to: server.url, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("3 runs pushed"), "\(first.stderr)")
        let store = try server.connect()
        for table in Self.tables {
            #expect(try Self.count(table, in: store) == Self.localCount("SELECT count(*) FROM \(table)", local), "\(table)")
        }
        #expect(try Self.count("events", in: store) > 100)
        #expect(try Self.count("lifetime_rollups", in: store) > 0, "what the savings reports' temporaries are read from")
        // Each event's and each rollup's peak comes along (schema version 18, the store's 11).
        for table in ["events", "rollups"] {
            let sum = "SELECT CAST(sum(peak_requested_bytes) AS BIGINT) FROM \(table)"
            let inFile = try Self.localCount(sum, local), inStore = try store.scalar(sum)?.int64
            #expect(inFile > 0 && inStore == inFile, "\(table)")
        }
        #expect(try Self.count("baselines", in: store) >= 1)

        let second = try Self.push("local.sqlite", to: server.url, in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("0 runs pushed"), "\(second.stderr)")
        #expect(second.stderr.contains("3 already in the store"), "\(second.stderr)")
        for table in Self.tables {
            #expect(try Self.count(table, in: store) == Self.localCount("SELECT count(*) FROM \(table)", local), "\(table) after a second push")
        }
        // Every event arrives with its keys spelled out the same (the public event_log view).
        let sum = "SELECT sum(requested_bytes * (seq + 1)) FROM event_log WHERE kind = 'create' AND component <> 'x'"
        #expect(try store.scalar(sum)?.int64 == Self.localCount(sum, local))
        #expect(try Data(contentsOf: local) == before, "push must not change the local file")

        // events has no foreign keys (bulk speed); deleting a run still deletes its events.
        let runKey = try #require(try store.scalar("SELECT min(run_key) FROM runs")?.int64)
        #expect(try store.scalar("SELECT count(*) FROM event_rows WHERE run_key = $1", [.integer(runKey)])?.int64 ?? 0 > 0)
        let others = try #require(try store.scalar("SELECT count(*) FROM event_rows WHERE run_key <> $1", [.integer(runKey)])?.int64)
        try store.execute("DELETE FROM runs WHERE run_key = \(runKey)")
        #expect(try store.scalar("SELECT count(*) FROM event_series WHERE run_key = $1", [.integer(runKey)])?.int64 == 0)
        #expect(try Self.count("events", in: store) == others, "no event is left without its series")
    }

    @Test("four pushers at once, sharing a run, into a new store: every run lands once", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func concurrentPushers() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "10"], db: "shared.sqlite", in: folder)
        let names = (0..<4).map { "machine\($0).sqlite" }
        for name in names {
            try FileManager.default.copyItem(at: folder.url.appendingPathComponent("shared.sqlite"), to: folder.url.appendingPathComponent(name))
            try ProfctlProcess.record(["lazy-container", "--instances", "10"], db: name, in: folder)
        }
        let statuses = PushResults()
        let url = server.url, directory = folder.url
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let result = try? ProfctlProcess.run(["push", "--db", names[index], "--to", url], in: directory)
            statuses.set(index, result)
        }
        for (index, result) in statuses.all.enumerated() {
            #expect(result?.status == 0, "pusher \(index): \(result?.stderr ?? "did not run")")
        }
        let store = try server.connect()
        #expect(try Self.count("runs", in: store) == 5)
        #expect(try store.scalar("SELECT count(DISTINCT run_id) FROM runs")?.int64 == 5)
        let eventsPerRun = try Self.localCount("SELECT count(*) FROM events", folder.url.appendingPathComponent("shared.sqlite"))
        #expect(try Self.count("events", in: store) == 5 * eventsPerRun)
        #expect(try store.scalar("SELECT count(*) FROM schema_migrations")?.int64 == Int64(PostgresMigrator().migrations.count))
    }

    @Test("aborted runs stay local unless --include-incomplete", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func incompleteRuns() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        let local = folder.url.appendingPathComponent("local.sqlite")
        _ = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                   [local.path, "UPDATE runs SET status = 'aborted', error = 'test' WHERE run_key = 1"], in: folder.url)
        let first = try Self.push("local.sqlite", to: server.url, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("1 runs pushed"), "\(first.stderr)")
        #expect(first.stderr.contains("1 incomplete left local"), "\(first.stderr)")
        let store = try server.connect()
        #expect(try store.scalar("SELECT count(*) FROM runs WHERE status = 'aborted'")?.int64 == 0)
        let second = try Self.push("local.sqlite", to: server.url, ["--include-incomplete"], in: folder)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try store.scalar("SELECT count(*) FROM runs WHERE status = 'aborted'")?.int64 == 1)
    }
}

/// Results written from concurrentPerform's threads.
final class PushResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: ProfctlProcess.Result] = [:]
    func set(_ index: Int, _ result: ProfctlProcess.Result?) { lock.withLock { results[index] = result } }
    var all: [ProfctlProcess.Result?] { lock.withLock { (0..<max(4, results.count)).map { results[$0] } } }
}
