import Foundation
import Profiler
import ProfilerPostgres
import Testing

/// The same runs read from the local SQLite file and from the PostgreSQL store they were
/// pushed to: docs/schema.md's example queries and the reading commands agree.
@Suite("reading the PostgreSQL store", .serialized)
struct PostgresReadingTests {
    static let schemaDoc = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/schema.md")

    /// The statements of every ```sql block of docs/schema.md (as SchemaDocTests reads them).
    static func exampleQueries() throws -> [String] {
        let text = try String(contentsOf: schemaDoc, encoding: .utf8)
        var queries: [String] = []
        for block in text.components(separatedBy: "```sql\n").dropFirst() {
            guard let body = block.components(separatedBy: "```").first else { continue }
            queries += body.components(separatedBy: ";\n")
                .map { $0.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n") }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
        }
        return queries
    }

    /// Every scenario recorded twice into local.sqlite and pushed to a fresh store.
    static func recordedAndPushed(_ server: PostgresTestDatabase) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            try PostgresPushTests.record(["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "--instances", "5"],
                                         into: "local.sqlite", in: folder)
            try PostgresPushTests.record(["live-room", "--instances", "30"], into: "local.sqlite", in: folder)
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

    @Test("every docs/schema.md example query returns the same rows from both stores")
    func exampleQueriesAgree() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        let local = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("local.sqlite").path)
        let store = try PostgresStore.openForReading(server.url)
        // The store mirrors every view, but its raw `events` table keeps the layout from
        // before SQLite's version 4 (no `event_series`; docs/fleet.md says so): the one
        // example that reads the series is SQLite's alone until the store moves too.
        let all = try Self.exampleQueries()
        let queries = all.filter { !$0.contains("event_series") }
        #expect(all.count - queries.count == 1, "examples reading event_series: only the aggregate's")
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

    @Test("runs and report read the same from --store as from --db")
    func commandsAgree() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try Self.recordedAndPushed(server)
        for arguments in [["runs", "--format", "csv"], ["report", "--format", "json"], ["report", "--scenario", "image-cache", "--format", "csv"]] {
            let fromFile = try ProfctlProcess.run(arguments + ["--db", "local.sqlite"], in: folder.url)
            let fromStore = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            #expect(fromFile.stdout == fromStore.stdout, "\(arguments)")
        }
    }

    @Test("query --store is read-only, stops runaway statements and caps rows")
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

    @Test("check --baseline median:5 and previous gate the same on --store as on --db")
    func checkAgrees() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        for _ in 0..<6 {
            try PostgresPushTests.record(["lazy-container", "image-cache", "--instances", "5"], into: "local.sqlite", in: folder)
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
}
