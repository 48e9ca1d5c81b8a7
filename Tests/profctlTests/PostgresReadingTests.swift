import Foundation
import Profiler
import ProfilerPostgres
import SchemaDocExamples
import Testing

/// The same runs read from the local SQLite file and from the PostgreSQL store they were
/// pushed to: docs/schema.md's example queries and the reading commands agree.
@Suite("reading the PostgreSQL store", .serialized)
struct PostgresReadingTests {
    /// Every scenario recorded twice into local.sqlite and pushed to a fresh store.
    static func recordedAndPushed(_ server: PostgresTestDatabase) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            try ProfctlProcess.record(["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "--instances", "5"],
                                         db: "local.sqlite", in: folder)
            try ProfctlProcess.record(["live-room", "--instances", "30"], db: "local.sqlite", in: folder)
        }
        let pushed = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        return folder
    }

    /// Values as both stores spell them: numbers as doubles (PostgreSQL's sums are
    /// numeric where SQLite's are integers), text as text.
    static func normalized(_ table: ResultTable) -> [String] {
        table.rows.map { row in
            row.map { value -> String in
                switch value {
                case .null: "NULL"
                case .integer(let v): String(Double(v))
                case .real(let v): String((v * 1e6).rounded() / 1e6)
                case .text(let v): "'" + v + "'"
                case .blob(let v): "\(v)"
                }
            }.joined(separator: " | ")
        }.sorted()
    }

    @Test("every docs/schema.md example query returns the same rows from both stores", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func exampleQueriesAgree() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let local = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
        let store = try PostgresStore.openForReading(server.url)
        // Every example, those reading the raw event_series and events tables included:
        // the store keeps events in the file's layout (its migration 0002).
        let queries = try SchemaDocExamples.queries(includingFileOnly: false)
        #expect(queries.contains { $0.contains("event_series") })
        #expect(queries.count >= 10)
        for query in queries {
            let fromFile = try ReadOnlyQuery.run(query, on: local).table
            let fromStore: ResultTable
            do {
                fromStore = try PostgresReadOnlyQuery.run(query, on: store).table
            } catch {
                Issue.record("PostgreSQL refused: \(query)\n\(error)")
                continue
            }
            #expect(fromFile.columns.count == fromStore.columns.count, "\(query)")
            #expect(Self.normalized(fromFile) == Self.normalized(fromStore), "\(query)")
        }
        // Not vacuous: the first example returns rows on both.
        #expect(try PostgresReadOnlyQuery.run(queries[0], on: store).table.rows.count > 0)
    }

    /// Every reading command, with arguments that make it print rows.
    static let readingCommands: [[String]] = [
        ["runs", "--format", "csv"],
        ["report", "--format", "json"],
        ["report", "--scenario", "image-cache", "--format", "csv"],
        ["check", "--baseline", "previous", "--format", "json"],
        ["trend", "--scenario", "lazy-container", "--metric", "bytes_per_instance", "--format", "csv"],
        ["trend", "--scenario", "composite-cell", "--metric", "create_ns@later", "--format", "json"],
        ["compare", "previous", "latest", "--format", "csv"],
        ["compare", "median:2", "latest", "--format", "markdown"],
        ["query", "SELECT scenario, count(*) AS n FROM runs GROUP BY scenario ORDER BY scenario", "--format", "csv"],
        ["baseline", "list", "--format", "csv"],
        ["export", "--format", "chrome-trace"],
        ["export", "--scenario", "lazy-list"],
    ]

    @Test("runs, report, check, trend, compare, query, baseline list and export read the same from --store as from --db", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func commandsAgree() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        for arguments in Self.readingCommands {
            let fromFile = try ProfctlProcess.run(arguments + ["--db", "local.sqlite"], in: folder.url)
            let fromStore = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
            // check's verdict may be a regression (exit 2: latencies of two small runs),
            // but the same one from either store.
            let expected: Set<Int32> = arguments[0] == "check" ? [0, 2, 4] : [0]
            #expect(expected.contains(fromFile.status), "\(arguments): \(fromFile.stderr)")
            #expect(fromStore.status == fromFile.status, "\(arguments): \(fromStore.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            #expect(fromFile.stdout == fromStore.stdout, "\(arguments)")
        }
    }

    @Test("report --format html on --store draws every report and the what-if curves, without the size-class charts the store has no view for yet", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func htmlReportOnTheStore() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let fromFile = try ProfctlProcess.run(["report", "--format", "html", "--db", "local.sqlite"], in: folder.url)
        let fromStore = try ProfctlProcess.run(["report", "--format", "html", "--store", server.url], in: folder.url)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        let sizeClassTitle = "Allocations per size class of the requested size"
        #expect(fromFile.stdout.contains(sizeClassTitle))
        #expect(!fromStore.stdout.contains(sizeClassTitle))
        #expect(fromStore.stdout.contains("<svg"), "the reports' own charts are drawn")
        // The what-if curves of the cache runs, from the store's cache_trace (its migration 0012).
        let whatIfTitle = "What if: other cache sizes and policies"
        #expect(fromStore.stdout.components(separatedBy: whatIfTitle).count == fromFile.stdout.components(separatedBy: whatIfTitle).count)
        #expect(fromStore.stdout.contains(whatIfTitle))
    }

    @Test("query --store is read-only, stops runaway statements and caps rows", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func queryGuards() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let write = try ProfctlProcess.run(["query", "--store", server.url, "DELETE FROM runs"], in: folder.url)
        #expect(write.status == 64, "\(write.stderr)")
        let sneaky = try ProfctlProcess.run(["query", "--store", server.url,
                                             "WITH gone AS (DELETE FROM runs RETURNING 1) SELECT count(*) FROM gone"], in: folder.url)
        #expect(sneaky.status == 64, "\(sneaky.stderr)")
        let slow = try ProfctlProcess.run(["query", "--store", server.url, "--timeout", "0.5", "SELECT pg_sleep(5)"], in: folder.url)
        #expect(slow.status == 1, "\(slow.stderr)")
        #expect(slow.stderr.contains("stopped after"), "\(slow.stderr)")
        let capped = try ProfctlProcess.run(["query", "--store", server.url, "--max-rows", "3", "--format", "csv",
                                             "SELECT DISTINCT seq FROM event_log ORDER BY seq"], in: folder.url)
        #expect(capped.status == 0, "\(capped.stderr)")
        #expect(capped.stdout.components(separatedBy: .newlines).filter { !$0.isEmpty } == ["seq", "0", "1", "2"], "\(capped.stdout)")
        #expect(capped.stderr.contains("truncated"), "\(capped.stderr)")
        #expect(try server.connect().scalar("SELECT count(*) FROM runs")?.int64 == 12)
    }

    @Test("check --baseline median:5 and previous gate the same on --store as on --db", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func checkAgrees() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        for _ in 0..<6 {
            try ProfctlProcess.record(["lazy-container", "image-cache", "--instances", "5"], db: "local.sqlite", in: folder)
        }
        #expect(try PostgresPushTests.push("local.sqlite", to: server.url, in: folder).status == 0)
        for arguments in [["check", "--baseline", "median:5", "--format", "json"],
                          ["check", "--baseline", "previous", "--tolerance", "0", "--format", "json"],
                          ["check", "--baseline", "previous", "--scenario", "image-cache"]] {
            let fromFile = try ProfctlProcess.run(arguments + ["--db", "local.sqlite"], in: folder.url)
            let fromStore = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
            #expect(!fromFile.stdout.isEmpty, "\(fromFile.stderr)")
            #expect(fromFile.status == fromStore.status, "\(arguments): \(fromStore.stderr)")
            #expect(fromFile.stdout == fromStore.stdout, "\(arguments)")
        }
        // A baseline name the store lacks: the same exit code as for a file.
        let missing = try ProfctlProcess.run(["check", "--baseline", "no-such-label", "--store", server.url], in: folder.url)
        #expect(missing.status == 5, "\(missing.stderr)")
    }

    /// `baseline list` without its created_at column, which says when each label was set.
    static func labels(_ csv: String) -> [String] {
        csv.components(separatedBy: .newlines).filter { !$0.isEmpty }.map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast().joined(separator: ",") }
    }

    @Test("baseline set, list and rm on --store: the same labels as on --db; a refused write leaves no label at all", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func baselinesOnTheStore() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let store = try server.connect()
        for target in [["--db", "local.sqlite"], ["--store", server.url]] {
            let set = try ProfctlProcess.run(["baseline", "set", "main"] + target, in: folder.url)
            #expect(set.status == 0, "\(target): \(set.stderr)")
            #expect(set.stderr.contains("main: live-room run"), "\(set.stderr)")
        }
        #expect(try store.scalar("SELECT count(*) FROM baselines WHERE name = 'main'")?.int64 == 6)
        let fromFile = try ProfctlProcess.run(["baseline", "list", "--format", "csv", "--db", "local.sqlite"], in: folder.url)
        let fromStore = try ProfctlProcess.run(["baseline", "list", "--format", "csv", "--store", server.url], in: folder.url)
        #expect(Self.labels(fromFile.stdout).count == 7, "\(fromFile.stdout)")
        #expect(Self.labels(fromFile.stdout) == Self.labels(fromStore.stdout))
        // The label gates on the store as on the file.
        let gate = try ProfctlProcess.run(["check", "--baseline", "main", "--store", server.url, "--format", "json"], in: folder.url)
        let gateFile = try ProfctlProcess.run(["check", "--baseline", "main", "--db", "local.sqlite", "--format", "json"], in: folder.url)
        #expect(gate.status == gateFile.status, "\(gate.stderr)")
        #expect(gate.stdout == gateFile.stdout)

        let removed = try ProfctlProcess.run(["baseline", "rm", "main", "--store", server.url], in: folder.url)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.contains("removed main from 6 run(s)"), "\(removed.stderr)")
        #expect(try store.scalar("SELECT count(*) FROM baselines")?.int64 == 0)
        let again = try ProfctlProcess.run(["baseline", "rm", "main", "--store", server.url], in: folder.url)
        #expect(again.status == 64, "\(again.stderr)")
        #expect(again.stderr.contains("no label named 'main'"), "\(again.stderr)")

        // The server refuses the fourth label of six: one transaction, so none is written.
        try store.execute("""
            CREATE FUNCTION refuse_label() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.scenario = 'identity' THEN RAISE EXCEPTION 'labels are frozen' USING ERRCODE = '42501'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_label BEFORE INSERT ON baselines FOR EACH ROW EXECUTE FUNCTION refuse_label();
            """)
        let refused = try ProfctlProcess.run(["baseline", "set", "release", "--store", server.url], in: folder.url)
        #expect(refused.status == 23, "\(refused.stderr)")
        #expect(refused.stderr.contains("labels are frozen"), "\(refused.stderr)")
        #expect(refused.stderr.contains("rolled back"), "\(refused.stderr)")
        #expect(try store.scalar("SELECT count(*) FROM baselines")?.int64 == 0)
        // A store that is not there: its own exit code, nothing written anywhere.
        let down = try ProfctlProcess.run(["baseline", "set", "main", "--store", "postgres://nobody@127.0.0.1:1/none"], in: folder.url)
        #expect(down.status == 20, "\(down.stderr)")
    }
}
