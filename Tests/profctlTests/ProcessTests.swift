import Foundation
import Testing

@Suite("profctl as a process")
struct ProcessTests {
    @Test("record then report --format json: 9 rows with the lazy-container arithmetic")
    func recordAndReport() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(["record", "lazy-container", "--instances", "100"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let runID = record.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: runID) != nil)
        #expect(record.stderr.contains("recorded lazy-container"))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))

        let report = try ProfctlProcess.run(["report", "--format", "json"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        #expect(run["run_id"] as? String == runID)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == 9)
        for component in ["Label", "Button", "ImageView"] {
            func bytes(_ strategy: String) -> Double? {
                rows.first { $0["component"] as? String == component && $0["strategy"] as? String == strategy }?["bytes_per_instance"] as? Double
            }
            let eager = try #require(bytes("eager")), lazy = try #require(bytes("lazy")), realized = try #require(bytes("lazy-realized"))
            #expect(lazy == 48 && realized == eager + lazy && eager >= 8 * lazy)
        }
        for key in ["component", "strategy", "instances", "bytes_per_instance", "baseline_strategy", "saved_bytes", "savings_pct"] {
            #expect(rows[0][key] != nil, "missing \(key)")
        }
    }

    @Test("sqlite3 shows the same rows in the savings view as the report")
    func sqliteShell() throws {
        let shell = URL(fileURLWithPath: "/usr/bin/sqlite3")
        try #require(FileManager.default.isExecutableFile(atPath: shell.path), "the sqlite3 shell is part of the README's setup")
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("p.sqlite").path
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "20", "--quiet"], environment: ["PROFCTL_DB": db], in: folder.url)
        let csv = try ProfctlProcess.run(["report", "--format", "csv", "--db", db], in: folder.url)
        let view = try ProfctlProcess.run(executable: shell, ["-csv", db, "SELECT component, strategy, instances, bytes_per_instance, saved_bytes, savings_pct FROM savings"], in: folder.url)
        #expect(view.status == 0, "\(view.stderr)")
        func normalized(_ text: String) -> [[Double]] {
            text.split(whereSeparator: \.isNewline).map { line in line.split(separator: ",").compactMap { Double($0) } }
                .filter { !$0.isEmpty }
        }
        // The report adds what building cost after bytes_per_instance (peak, allocations,
        // temporary bytes) and a break-even column after the view's own.
        let fromReport = normalized(csv.stdout).map { row in [0, 1, 5, 6].compactMap { $0 < row.count ? row[$0] : nil } }
        #expect(fromReport.count == 9)
        #expect(fromReport == normalized(view.stdout))
    }

    @Test("query refuses a write with a clear message and exit 64, and the database is unchanged")
    func queryRefusesWrites() throws {
        let folder = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder.url)
        let path = folder.url.appendingPathComponent("profile.sqlite").path
        let before = try ProfctlProcess.run(["query", "SELECT count(*) AS n FROM runs", "--format", "csv"], in: folder.url)
        let write = try ProfctlProcess.run(["query", "DELETE FROM runs"], in: folder.url)
        #expect(write.status == 64)
        #expect(write.stderr.contains("read-only"))
        let after = try ProfctlProcess.run(["query", "SELECT count(*) AS n FROM runs", "--format", "csv"], in: folder.url)
        #expect(before.stdout == "n\r\n1\r\n" && after.stdout == before.stdout)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a --timeout too large for nanoseconds is a long limit, not a crash")
    func hugeQueryTimeout() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(["record", "identity", "--instances", "3", "--quiet"], in: folder.url).status == 0)
        let result = try ProfctlProcess.run(["query", "SELECT count(*) AS n FROM runs", "--timeout", "1e20", "--format", "csv"],
                                            in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "n\r\n1\r\n")
    }

    @Test("a missing database and a file that is not one each get their own message and exit code")
    func badDatabases() throws {
        let folder = try TemporaryFolder()
        let missing = try ProfctlProcess.run(["report", "--db", "nothing.sqlite"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no database at nothing.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("nothing.sqlite").path))

        let junk = folder.url.appendingPathComponent("junk.sqlite")
        let content = Data(String(repeating: "not a database ", count: 200).utf8)
        try content.write(to: junk)
        for arguments in [["report"], ["record", "lazy-container", "--instances", "2"], ["runs"]] {
            let result = try ProfctlProcess.run(arguments + ["--db", junk.path], in: folder.url)
            #expect(result.status == 3, "\(arguments)")
            #expect(result.stderr.contains("is not a SQLite database"))
        }
        #expect(try Data(contentsOf: junk) == content)
    }

    @Test("scenarios lists each built-in on one line; runs lists what was recorded")
    func listings() throws {
        let folder = try TemporaryFolder()
        let scenarios = try ProfctlProcess.run(["scenarios"], in: folder.url)
        #expect(scenarios.stdout.split(separator: "\n").first?.hasPrefix("lazy-container") == true)
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url)
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        #expect(runs.status == 0)
        #expect(runs.stdout.contains(",lazy-container,complete,"))
        let status = try ProfctlProcess.run(["migrate", "--status"], in: folder.url)
        #expect(status.stdout.contains("initial") && status.stdout.contains("applied"))
    }
}

@Suite("Scenario files through profctl")
struct ScenarioFileProcessTests {
    @Test("a shipped scenario file records and reports under its own name")
    func recordsAndReports() throws {
        let folder = try TemporaryFolder()
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios/long-list-identity.yaml")
        let record = try ProfctlProcess.run(["record", file.path, "--set", "items=30", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let report = try ProfctlProcess.run(["report", "--scenario", "long-list-identity", "--format", "csv"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("stable-id,30,1,0,0,"))
    }

    @Test("a broken file fails with line and column, exit 64, and the database is left unchanged")
    func brokenFileWritesNothing() throws {
        let folder = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "identity", "--instances", "3", "--quiet"], in: folder.url)
        let database = folder.url.appendingPathComponent("profile.sqlite")
        let before = try Data(contentsOf: database)
        let broken = folder.url.appendingPathComponent("broken.yaml")
        try "scenario: identity\nparameters:\n  items: many\n".write(to: broken, atomically: true, encoding: .utf8)
        // A valid scenario named first must not be recorded either.
        let result = try ProfctlProcess.run(["record", "lazy-container", broken.path], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("broken.yaml:3:10: items must be a whole number"))
        #expect(try Data(contentsOf: database) == before)
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        #expect(runs.stdout.split(whereSeparator: \.isNewline).count == 2)
    }
}

@Suite("Progress")
struct ProgressTests {
    @Test("record draws a progress bar in place on a terminal, nothing but the summary line on a pipe")
    func progressOnlyOnATerminal() throws {
        let folder = try TemporaryFolder()
        // PROFCTL_PROGRESS_AFTER=0: the bar from the start, so a short run shows it too.
        let now = ["PROFCTL_PROGRESS_AFTER": "0"]
        let piped = try ProfctlProcess.run(["record", "identity", "lazy-container", "--instances", "300"],
                                           environment: now, in: folder.url)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("[#") && !piped.stderr.contains("[-"))
        let lines = piped.stderr.split(whereSeparator: \.isNewline)
        #expect(lines.count == 2)
        #expect(lines.last?.contains("recorded lazy-container as run ") == true && lines.last?.contains("events/s") == true)
        // `script` gives the command a terminal.
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path))
        // script's terminal has no size: COLUMNS gives the bar room for every part. The bar
        // is drawn ten times a second, so the run must last a few tenths at least: 5,000
        // instances take about a second in a debug build.
        let terminal = try ProfctlProcess.run(executable: script,
                                              ["-qec", "\(ProfctlProcess.binary.path) record lazy-container --instances 5000", "/dev/null"],
                                              environment: now.merging(["COLUMNS": "200"]) { $1 }, in: folder.url)
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("\rlazy-container ["), "the bar is redrawn in place")
        #expect(terminal.stdout.contains(" instances, ") && terminal.stdout.contains(" events/s, "))
        #expect(terminal.stdout.contains("/45,000 instances"), "3 components x 3 strategies x 5,000")
        // The summary starts a clean line: after the bar was cleared, or after a pass line
        // printed above the bar (which clears it first), when the bar was not drawn again.
        #expect(terminal.stdout.contains("\r\u{1B}[Krecorded lazy-container as run ")
                    || terminal.stdout.contains("instances\r\nrecorded lazy-container as run ")
                    || terminal.stdout.contains("instances\nrecorded lazy-container as run "),
                "the bar is cleared for the summary")
        // A run shorter than the wait (a second unless told) shows no bar.
        let short = try ProfctlProcess.run(executable: script,
                                           ["-qec", "\(ProfctlProcess.binary.path) record identity --instances 3", "/dev/null"],
                                           environment: ["PROFCTL_PROGRESS_AFTER": "60"], in: folder.url)
        // (script turns each line end into \r\n, so look for the bar itself.)
        #expect(short.status == 0 && !short.stdout.contains("identity [") && short.stdout.contains("recorded identity as run "))
        let quiet = try ProfctlProcess.run(executable: script,
                                           ["-qec", "\(ProfctlProcess.binary.path) record identity --instances 3 --quiet", "/dev/null"],
                                           environment: now, in: folder.url)
        #expect(!quiet.stdout.contains("identity [") && !quiet.stdout.contains("recorded"))
    }

    @Test("on an 80-column terminal: the pass lines the README tour shows, a bar of whole parts, and 99 % says why")
    func eightyColumns() throws {
        let folder = try TemporaryFolder()
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path))
        let terminal = try ProfctlProcess.run(executable: script,
                                              ["-qec", "\(ProfctlProcess.binary.path) record lazy-container --instances 5000", "/dev/null"],
                                              environment: ["PROFCTL_PROGRESS_AFTER": "0", "COLUMNS": "80"], in: folder.url)
        #expect(terminal.status == 0)
        // The README tour's lines, one per pass, each on a line of its own (script ends lines with \r\n).
        let lines = terminal.stdout.components(separatedBy: "\r\n").map { $0.components(separatedBy: "\r").last ?? $0 }
        for component in ["Label", "Button", "ImageView"] {
            for strategy in ["eager", "lazy", "lazy-realized"] {
                #expect(lines.contains { $0.hasSuffix("lazy-container: \(component) \(strategy): 5000 instances") }, "\(component) \(strategy)")
            }
        }
        // Every drawing of the bar fits 79 columns and ends with a whole part.
        let bars = terminal.stdout.components(separatedBy: "\r").filter { $0.hasPrefix("lazy-container [") }
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "").components(separatedBy: "\n")[0] }
        #expect(!bars.isEmpty)
        for bar in bars {
            #expect(bar.count <= 79, "\(bar)")
            #expect(["left", "estimating", "steps", "rollups"].contains { bar.hasSuffix($0) }, "\(bar)")
        }
    }
}
