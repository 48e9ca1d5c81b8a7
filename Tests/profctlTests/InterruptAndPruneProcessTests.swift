import Foundation
import Profiler
import Testing

/// Ctrl-C during `record` says what was kept (exit 130, the run id, the events), the run
/// is marked aborted as interrupted, and `prune --aborted` deletes it (docs/cli.md).
@Suite("Ctrl-C during record, and prune")
struct InterruptAndPruneProcessTests {
    static func scalar(_ sql: String, _ path: String) throws -> SQLValue? {
        try SQLiteConnection(path: path, mode: .readOnly).scalar(sql)
    }

    /// A record interrupted by SIGINT once it has committed events; its stderr.
    static func interruptedRecord(in folder: TemporaryFolder) throws -> (status: Int32, stderr: String) {
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        let process = Process()
        process.executableURL = ProfctlProcess.binary
        process.arguments = ["record", "lazy-container", "--instances", "400000", "--quiet"]
        process.currentDirectoryURL = folder.url
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let started = ReliabilityTests().waitUntil {
            ((try? scalar("""
                SELECT count(*) FROM events e JOIN event_series x USING (series_id) JOIN runs r USING (run_key)
                WHERE r.status = 'running'
                """, db))??.int64 ?? 0) > 0
        }
        #expect(started)
        guard started else { process.terminate(); process.waitUntilExit(); return (-1, "") }
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus, stderr)
    }

    @Test("Ctrl-C: exit 130, the run id and the events kept on stderr; the run aborted as interrupted, holding exactly those events")
    func interrupted() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        let (status, stderr) = try Self.interruptedRecord(in: folder)
        #expect(status == 130, "\(stderr)")
        let runID = try #require(try Self.scalar("SELECT run_id FROM runs", db)?.string)
        let events = try #require(try Self.scalar("SELECT count(*) FROM events", db)?.int64)
        #expect(stderr.contains("interrupted (Ctrl-C): run \(runID) (lazy-container) kept \(events) events"), "\(stderr)")
        #expect(stderr.contains("profctl prune --aborted"), "\(stderr)")
        #expect(try Self.scalar("SELECT status FROM runs", db)?.string == "aborted")
        #expect(try Self.scalar("SELECT error FROM runs", db)?.string?.hasPrefix("interrupted") == true)
    }

    @Test("prune --aborted: --dry-run lists and changes nothing; then the aborted run goes with its events, complete runs stay")
    func prune() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite")
        #expect(try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url).status == 0)
        _ = try Self.interruptedRecord(in: folder)
        let abortedID = try #require(try Self.scalar("SELECT run_id FROM runs WHERE status = 'aborted'", db.path)?.string)
        let before = try Data(contentsOf: db)
        let dry = try ProfctlProcess.run(["prune", "--aborted", "--dry-run"], in: folder.url)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains(abortedID) && dry.stderr.contains("would delete 1 aborted run"), "\(dry.stdout)\(dry.stderr)")
        #expect(try Data(contentsOf: db) == before)
        let pruned = try ProfctlProcess.run(["prune", "--aborted"], in: folder.url)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains(abortedID) && pruned.stderr.contains("deleted 1 aborted run"), "\(pruned.stdout)\(pruned.stderr)")
        #expect(try Self.scalar("SELECT count(*) FROM runs WHERE status = 'aborted'", db.path)?.int64 == 0)
        #expect(try Self.scalar("SELECT count(*) FROM runs WHERE status = 'complete'", db.path)?.int64 == 1)
        #expect(try Self.scalar("SELECT count(*) FROM event_series x JOIN runs r USING (run_key) WHERE r.status = 'complete'", db.path)?.int64 ?? 0 > 0)
        #expect(try Self.scalar("SELECT count(*) FROM event_series WHERE run_key NOT IN (SELECT run_key FROM runs)", db.path)?.int64 == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int ?? 0 < before.count)
        let again = try ProfctlProcess.run(["prune", "--aborted"], in: folder.url)
        #expect(again.status == 0 && again.stderr.contains("no aborted runs"), "\(again.stderr)")
    }

    @Test("prune is checked like every command: no --aborted, a typo, an empty or missing database")
    func pruneInputs() throws {
        let folder = try TemporaryFolder()
        try Data().write(to: folder.url.appendingPathComponent("empty.sqlite"))
        let cases: [([String], Int32, String)] = [
            (["prune"], 64, "--aborted"),
            (["prune", "--aborted", "--dry-rn"], 64, "--dry-run"),
            (["prune", "--aborted", "--db"], 64, "--db"),
            (["prune", "--aborted", "--db", "empty.sqlite"], 10, "empty.sqlite"),
            (["prune", "--aborted", "--db", "none.sqlite"], 1, "none.sqlite"),
        ]
        for (arguments, status, mention) in cases {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("none.sqlite").path))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("empty.sqlite")).isEmpty)
    }
}
