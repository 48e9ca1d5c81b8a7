import Foundation
import Profiler
import Testing

/// Crashes, concurrency, full disks and bad files, with real processes and files.
@Suite("Reliability")
struct ReliabilityTests {
    func start(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = ProfctlProcess.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func scalar(_ sql: String, _ path: String) throws -> Int64 {
        try SQLiteConnection(path: path, mode: .readOnly).scalar(sql)?.int64 ?? -1
    }

    /// Waits (up to 60 s) until `condition` holds.
    func waitUntil(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<600 {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    @Test("a record killed with SIGKILL leaves an intact database, its committed events, and the run marked aborted")
    func killedRecord() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        _ = try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
        let recorder = try start(["record", "lazy-container", "--instances", "200000", "--quiet"], in: folder.url)
        let committed = waitUntil { (try? scalar("SELECT count(*) FROM event_rows e JOIN runs r USING (run_key) WHERE r.scenario = 'lazy-container'", db)) ?? 0 >= 8192 }
        #expect(committed)
        let before = try scalar("SELECT count(*) FROM events", db)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        #expect(try SQLiteConnection(path: db, mode: .readOnly).scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try scalar("SELECT count(*) FROM events", db) >= before)
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        #expect(runs.stdout.contains(",lazy-container,aborted,"))
        #expect(!runs.stdout.contains(",running,"))
        let error = try SQLiteConnection(path: db, mode: .readOnly).scalar("SELECT error FROM runs WHERE scenario = 'lazy-container'")
        #expect(error?.string?.contains("ended before the run was finished") == true)
        // Reports and checks leave the aborted run out: the newest lazy-container run does not exist.
        let report = try ProfctlProcess.run(["report", "--scenario", "lazy-container"], in: folder.url)
        #expect(report.status == 1)
        #expect(try ProfctlProcess.run(["report"], in: folder.url).stdout.contains("identity"))
    }

    @Test("4 recorders writing into one database at once all complete with all their events")
    func concurrentRecorders() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        let recorders = try (0..<4).map { _ in
            try start(["record", "lazy-container", "--instances", "400", "--quiet"], in: folder.url)
        }
        for recorder in recorders { recorder.waitUntilExit() }
        #expect(recorders.allSatisfy { $0.terminationStatus == 0 })
        #expect(try scalar("SELECT count(*) FROM runs WHERE status = 'complete'", db) == 4)
        let perRun = try SQLiteConnection(path: db, mode: .readOnly).rows("SELECT count(*) FROM event_rows GROUP BY run_key")
        #expect(perRun == Array(repeating: [.integer(3 * 400 * 8)], count: 4))
        #expect(try scalar("SELECT count(DISTINCT bytes_per_instance || strategy || component) FROM savings", db) == 9)
    }

    @Test("readers beside the first recorders of a new database find no file or the whole schema, never one half made")
    func readersBesideCreation() throws {
        // Before the file was made whole, `runs` here said "schema version 11; this profctl
        // expects 13: migrate it first" or "an empty file" in about half the rounds.
        var seen: [String] = []
        for _ in 0..<3 {
            let folder = try TemporaryFolder()
            let recorders = try (0..<4).map { _ in
                try start(["record", "lazy-container", "--instances", "50", "--quiet"], in: folder.url)
            }
            for _ in 0..<40 where recorders.contains(where: \.isRunning) {
                let runs = try ProfctlProcess.run(["runs"], in: folder.url)
                if runs.status != 0 && !(runs.status == 1 && runs.stderr.contains("no database at")) {
                    seen.append("exit \(runs.status): \(runs.stderr)")
                }
            }
            for recorder in recorders { recorder.waitUntilExit() }
            #expect(recorders.allSatisfy { $0.terminationStatus == 0 })
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".creating-") }
            #expect(left.isEmpty, "drafts left beside the database: \(left)")
        }
        #expect(seen.isEmpty, "\(seen)")
    }

    @Test("a recorder waits out another writer holding the database for longer than a reader would (11 s), and completes")
    func recorderWaitsForTheWriteLock() throws {
        // Under load, 8 recorders on one file left one waiting more than the 10 s a reading
        // connection waits, and its run failed with "database is locked".
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        _ = try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
        let holder = try SQLiteConnection(path: db, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let recorder = try start(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
        sleep(11)
        #expect(recorder.isRunning, "the recorder gave up while the lock was held")
        try holder.execute("COMMIT")
        holder.close()
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        #expect(try scalar("SELECT count(*) FROM runs WHERE status = 'complete'", db) == 2)
    }

    @Test("report and query run while a record writes, see consistent data, and do not block it")
    func readersDuringWrites() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        _ = try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
        let writer = try start(["record", "lazy-container", "--instances", "4000", "--quiet"], in: folder.url)
        _ = waitUntil { (try? scalar("SELECT count(*) FROM runs WHERE status = 'running'", db)) == 1 }
        var counts: [Int64] = []
        for _ in 0..<5 where writer.isRunning {
            let query = try ProfctlProcess.run(["query", "SELECT count(*) AS n FROM events", "--format", "csv"], in: folder.url)
            #expect(query.status == 0, "\(query.stderr)")
            counts.append(Int64(query.stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? "") ?? -1)
            let report = try ProfctlProcess.run(["report", "--scenario", "identity"], in: folder.url)
            #expect(report.status == 0, "\(report.stderr)")
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(counts == counts.sorted())
        #expect(try scalar("SELECT count(*) FROM runs WHERE status = 'complete'", db) == 2)
    }

    @Test("a full disk (a file size limit) fails with a clear message, leaves no run complete, and earlier runs intact")
    func fullDisk() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite")
        _ = try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
        let size = (try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? NSNumber)?.intValue ?? 0
        let limitKiB = size / 1024 + 256
        let full = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/bin/bash"),
                                          ["-c", "ulimit -f \(limitKiB); exec \"$0\" record lazy-container --instances 3000 --quiet",
                                           ProfctlProcess.binary.path], in: folder.url)
        #expect(full.status != 0)
        #expect(full.stderr.contains("file size limit"), "\(full.stderr)")
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        #expect(runs.stdout.contains(",identity,complete,"))
        #expect(!runs.stdout.contains(",lazy-container,complete,"))
        #expect(try SQLiteConnection(path: db.path, mode: .readOnly).scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try ProfctlProcess.run(["report", "--scenario", "identity"], in: folder.url).status == 0)
    }

    @Test("bad files each get their own message and exit code, and are not modified", arguments: [
        ("empty", Int32(10), "is an empty file"),
        ("truncated", Int32(7), "is truncated"),
        ("newer", Int32(8), "newer than this profctl"),
        ("foreign", Int32(3), "is not a SQLite database"),
    ])
    func badFiles(kind: String, status: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite")
        switch kind {
        case "empty":
            try Data().write(to: db)
        case "foreign":
            try Data(repeating: 0x41, count: 4096).write(to: db)
        default:
            _ = try ProfctlProcess.run(["record", "identity", "--instances", "5", "--quiet"], in: folder.url)
            if kind == "newer" {
                let connection = try SQLiteConnection(path: db.path, mode: .readWrite)
                try connection.run("INSERT INTO schema_migrations VALUES (99, 'future', 'x', 'now')")
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            } else {
                let data = try Data(contentsOf: db)
                try data.prefix(data.count / 2).write(to: db)
            }
        }
        let before = try Data(contentsOf: db)
        for arguments in [["report"], ["query", "SELECT 1"], ["runs"]] + (kind == "empty" ? [] : [["record", "identity", "--instances", "2"]]) {
            let result = try ProfctlProcess.run(arguments + ["--quiet"].filter { _ in arguments[0] == "record" }, in: folder.url)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: db) == before)
    }
}

@Suite("Upgrades")
struct UpgradeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schema-v1.sqlite")

    /// The first migration's tables and columns, in key order: what must survive an upgrade row for row.
    static let firstSchema = [
        "SELECT run_key, run_id, scenario, status, started_at, ended_at, git_commit, host, os, arch, swift_version, build_configuration, tool_version, baseline_strategy, parameters, process_id, error FROM runs ORDER BY run_key",
        "SELECT * FROM subjects ORDER BY subject_id",
        // The first schema's kinds (later migrations add kinds: 0013 the idle mark).
        "SELECT * FROM event_kinds WHERE kind_id <= 5 ORDER BY kind_id",
        "SELECT run_key, seq, repeat, subject_id, instance, kind_id, allocations, frees, requested_bytes, usable_bytes, duration_ns FROM events ORDER BY run_key, seq",
        // The first schema's columns (version 14 adds retains and releases after them).
        """
        SELECT run_key, component, strategy, ordinal, instances, repeats, allocations, requested_bytes, usable_bytes,
               min_instance_requested, max_instance_requested, min_instance_usable, max_instance_usable,
               released_requested_bytes, released_usable_bytes
        FROM rollups ORDER BY run_key, component, strategy
        """,
        "SELECT run_id, scenario, component, strategy, instances, bytes_per_instance, baseline_strategy, saved_bytes, savings_pct FROM savings",
    ]

    @Test("a database made by the first migration is refused by readers, then upgraded by migrate with nothing lost")
    func upgradeFromVersion1() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("old.sqlite")
        try FileManager.default.copyItem(at: Self.fixture, to: db)
        let before = try SQLiteConnection(path: Self.fixture.path, mode: .readOnly)
        let original = try Self.firstSchema.map { try before.rows($0) }
        #expect(original[3].count > 100)

        let refused = try ProfctlProcess.run(["report", "--db", db.path], in: folder.url)
        #expect(refused.status == 9)
        #expect(refused.stderr.contains("Run: profctl migrate"))
        // Made before profctl marked its files: recognised by schema_migrations, stamped by migrate.
        #expect(try SQLiteConnection(path: db.path, mode: .readOnly).scalar("PRAGMA application_id") == .integer(0))

        let migrate = try ProfctlProcess.run(["migrate", "--db", db.path], in: folder.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("applied 2 (steps_reports_ci)"))
        let after = try SQLiteConnection(path: db.path, mode: .readOnly)
        // Events are stored by series since version 4; event_rows has the old columns.
        #expect(try Self.firstSchema.map { try after.rows($0.replacingOccurrences(of: "FROM events", with: "FROM event_rows")) } == original)
        #expect(try after.scalar("SELECT count(*) FROM event_rows WHERE step <> 0")?.int64 == 0)
        #expect(try after.rows("SELECT DISTINCT step FROM event_log") == [[.text("run")]])
        #expect(try after.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try after.scalar("PRAGMA application_id") == .integer(Int64(Migrator.applicationID)))

        let report = try ProfctlProcess.run(["report", "--db", db.path, "--run", "00000000-0000-0000-0000-000000001000", "--format", "csv"],
                                            in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        // Its allocations come from the rollups; temporaries were not kept before version 8,
        // retains and releases not counted before version 14 (both empty, never 0).
        let lazyLabel = report.stdout.components(separatedBy: "\r\n").first { $0.hasPrefix("Label,lazy,4,48,") }?.components(separatedBy: ",")
        // Nor peaks before version 18: empty, after bytes_per_instance.
        #expect(lazyLabel.map { $0[4] } == "", "\(report.stdout)")
        #expect(lazyLabel.map { Array($0.dropFirst(6)) } == ["", "eager", "657", "93.19", "93.19", "", ""], "\(report.stdout)")
        // And the upgraded database records like a new one.
        #expect(try ProfctlProcess.run(["record", "identity", "--instances", "3", "--quiet", "--db", db.path], in: folder.url).status == 0)
    }
}
