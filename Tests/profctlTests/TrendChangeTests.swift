import Foundation
import Testing

/// `trend` names the run and commit where a level shift began, through the real binary,
/// on real recordings (bytes) and on real stores with synthetic latencies (real timing
/// is too noisy to cause a shift on purpose).
@Suite("trend change points through profctl")
struct TrendChangeTests {
    /// Records `scenarios` in one process with GIT_COMMIT=commit; the run ids, oldest first.
    func record(_ arguments: [String], commit: String, in folder: TemporaryFolder) throws -> [String] {
        try ProfctlProcess.record(arguments, environment: ["GIT_COMMIT": commit], in: folder)
            .stdout.split(whereSeparator: \.isNewline).map(String.init)
    }

    func json(_ result: ProfctlProcess.Result) throws -> [[String: Any]] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test("a byte shift (bigger icons) is named at its first run and commit, in every output format")
    func byteShift() throws {
        let folder = try TemporaryFolder()
        _ = try record(["image-cache", "image-cache", "image-cache"], commit: "aaaaaaaa1111", in: folder)
        let first = try #require(try record(["image-cache", "--set", "icon_side=40"], commit: "bbbbbbbb2222", in: folder).first)
        _ = try record(["image-cache", "image-cache", "--set", "icon_side=40"], commit: "cccccccc3333", in: folder)
        let trend = ["trend", "--scenario", "image-cache", "--metric", "live_bytes_while_shown", "--strategy", "strong-cache"]

        let rows = try json(try ProfctlProcess.run(trend + ["--format", "json"], in: folder.url))
        #expect(rows.count == 6)
        let shifted = rows.filter { !($0["shift_pct"] is NSNull) }
        #expect(shifted.map { $0["run_id"] as? String } == [first])
        let shift = try #require(shifted.first)
        #expect(shift["git_commit"] as? String == "bbbbbbbb2222")
        // One 36x36 icon became 40x40: (40*40 - 36*36) * 4 bytes more.
        let before = try #require(shift["before_median"] as? Double), after = try #require(shift["after_median"] as? Double)
        #expect(after - before == Double((40 * 40 - 36 * 36) * 4))
        let percent = try #require(shift["shift_pct"] as? Double)
        #expect(abs(percent - (after - before) / before * 100) < 0.01)

        let csv = try ProfctlProcess.run(trend + ["--format", "csv"], in: folder.url).stdout
        let lines = csv.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        let pct = try #require(header.firstIndex(of: "shift_pct")), id = try #require(header.firstIndex(of: "run_id"))
        #expect(lines.dropFirst().filter { !$0[pct].isEmpty }.map { $0[id] } == [first])
        let markdown = try ProfctlProcess.run(trend + ["--format", "markdown"], in: folder.url).stdout
        #expect(markdown.contains("shift_pct") && markdown.split(separator: "\n").contains { $0.contains(first) && $0.contains(" \(Int(before)) ") })
        let html = try ProfctlProcess.run(trend + ["--format", "html"], in: folder.url).stdout
        #expect(html.contains("shift_pct") && html.contains(first))
        let table = try ProfctlProcess.run(trend, in: folder.url)
        #expect(table.stdout.contains("shift_pct") && table.stdout.contains(String(format: "%.2f", percent)))
        #expect(table.stderr.contains("1 level shift in 1 of 1 series"))

        // --changes without --metric: every byte metric that moved, all at the same run, nothing else.
        let changes = try json(try ProfctlProcess.run(["trend", "--scenario", "image-cache", "--changes", "--format", "json"], in: folder.url))
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0["run_id"] as? String == first && $0["git_commit"] as? String == "bbbbbbbb2222" && $0["method"] as? String == "exact" })
        #expect(changes.contains { $0["metric"] as? String == "live_bytes_while_shown" && $0["strategy"] as? String == "strong-cache" })
    }

    /// Twelve identity runs with two repeats each, their latencies replaced: runs 1-6 around
    /// 1000 ns, runs 7-12 around 1400 ns, with a little deterministic noise; each run its own commit.
    func latencyHistory(in folder: TemporaryFolder) throws -> [String] {
        let runs = try record(Array(repeating: "identity", count: 12) + ["--instances", "4", "--repeat", "2"], commit: "unused", in: folder)
        #expect(runs.count == 12)
        let edit = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), ["profile.sqlite", """
            UPDATE runs SET git_commit = printf('c%011d', run_key);
            UPDATE latency_rollups SET duration_ns_median =
                CASE WHEN run_key <= 6 THEN 1000 ELSE 1400 END + (run_key * 37 + repeat * 11 + step * 5) % 23;
            PRAGMA wal_checkpoint(TRUNCATE);
            """], in: folder.url)
        #expect(edit.status == 0, "\(edit.stderr)")
        return runs
    }

    @Test("a latency shift in a real store is named at its first run and commit, the same every time")
    func latencyShift() throws {
        let folder = try TemporaryFolder()
        let runs = try latencyHistory(in: folder)
        let arguments = ["trend", "--scenario", "identity", "--metric", "create_ns@initial", "--changes", "--format", "json"]
        let first = try ProfctlProcess.run(arguments, in: folder.url)
        let changes = try json(first)
        // One per (component, strategy) series of create_ns@initial, all at the seventh run.
        #expect(changes.count >= 4)
        for change in changes {
            #expect(change["run_id"] as? String == runs[6])
            #expect(change["git_commit"] as? String == "c00000000007")
            #expect(change["method"] as? String == "e-divisive")
            let p = try #require(change["p_value"] as? Double)
            #expect(p <= 0.01)
            let percent = try #require(change["shift_pct"] as? Double)
            #expect(percent > 35 && percent < 45, "\(percent)")
        }
        #expect(try ProfctlProcess.run(arguments, in: folder.url).stdout == first.stdout, "a fixed seed: the same answer")

        // The per-run view marks the same run; a stricter test finds nothing in 12 runs.
        let series = try json(try ProfctlProcess.run(["trend", "--scenario", "identity", "--metric", "create_ns@initial",
                                                       "--strategy", "stable-id", "--format", "json"], in: folder.url))
        #expect(series.filter { !($0["shift_pct"] is NSNull) }.map { $0["run_id"] as? String } == [runs[6]])
        let strict = try json(try ProfctlProcess.run(arguments + ["--min-segment", "7"], in: folder.url))
        #expect(strict.isEmpty, "12 runs cannot hold two segments of 7")
    }

    @Test("trend --store reads the same change points from PostgreSQL as --db from the file", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func latencyShiftOnPostgres() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        _ = try latencyHistory(in: folder)
        let pushed = try ProfctlProcess.run(["push", "--db", "profile.sqlite", "--to", server.url], in: folder.url)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        for view in [["--changes"], ["--strategy", "stable-id"]] {
            let arguments = ["trend", "--scenario", "identity", "--metric", "create_ns@initial", "--format", "csv"] + view
            let local = try ProfctlProcess.run(arguments, in: folder.url)
            let shared = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
            #expect(local.status == 0 && shared.status == 0, "\(shared.stderr)")
            #expect(local.stdout.contains("e-divisive") || local.stdout.contains("c00000000007"))
            #expect(shared.stdout == local.stdout)
        }
    }

    @Test("nonsense change point options exit 64 naming the option", arguments: [
        (["--min-segment", "1"], "--min-segment"),
        (["--min-segment", "-3"], "--min-segment"),
        (["--significance", "0"], "--significance"),
        (["--significance", "1.5"], "--significance"),
        (["--significance", "nan"], "--significance"),
        (["--significance", "abc"], "--significance"),
        (["--permutations", "0"], "--permutations"),
        (["--permutations", "10"], "--permutations 10 cannot reach --significance"),
        (["--limit", "0"], "--limit"),
    ])
    func nonsense(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["trend", "--scenario", "identity", "--changes"] + arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))
    }

    @Test("without --metric and --changes trend says what it needs (exit 64)")
    func metricNeeded() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["trend", "--scenario", "identity"], in: folder.url)
        #expect(result.status == 64 && result.stderr.contains("--metric is needed"))
    }
}
