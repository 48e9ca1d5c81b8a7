import Foundation
import Testing

/// PROFCTL_TEST_DB (docs/testing.md, "Figures in a database"): this test binary runs its own
/// fixture suite (Tests/ProfilerTestingTests/TestFiguresFixture.swift) in a child process,
/// with the variable naming a database, and profctl reads the figures back: `runs`,
/// `report`, `check --baseline previous` with a budget keyed on a test, and `trend`.
/// The suite is serialized: each test runs the fixture in child processes.
@Suite("PROFCTL_TEST_DB", .serialized)
struct TestFiguresProcessTests {
    /// The run's scenario: the fixture's test target.
    static let scenario = "ProfilerTestingTests"
    static let keepsABlock = "TestFiguresFixture/keepsABlock()"
    /// What docs/ci.md recommends (a concurrent test's peak varies with how its children
    /// interleave); keepsABlock's 512 B more still fails peak_bytes and bytes_allocated.
    static let documentedTolerance = ["--tolerance", "peak_bytes=1%"]

    /// What a trait's failure message says it measured, per test name (a parameterized
    /// test's cases one after the other).
    struct Measured: Equatable {
        var allocations: Double, bytes: Double, peak: Double, retained: Double, blocks: Double
    }

    /// Runs the fixture suite in a child of this test binary, in `folder`; `database` nil
    /// leaves PROFCTL_TEST_DB unset (removed from what this process has).
    static func runFixture(mode: String, database: String?, extraBytes: Int = 0, in folder: URL) throws -> ProfctlProcess.Result {
        var arguments = ["-u", "PROFCTL_TEST_DB"]
        if let database { arguments.append("PROFCTL_TEST_DB=\(database)") }
        arguments += ["PROFCTL_TEST_FIGURES_FIXTURE=\(mode)", "FIXTURE_EXTRA_BYTES=\(extraBytes)", CommandLine.arguments[0],
                      "--testing-library", "swift-testing", "--filter", "TestFiguresFixture"]
        return try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"), arguments, in: folder)
    }

    /// The figures of every "... exceeded its memory limit:" message in a run's output.
    static func measured(in output: String) -> [String: [Measured]] {
        var found: [String: [Measured]] = [:]
        var current: String?
        for line in output.components(separatedBy: "\n") {
            if let range = line.range(of: #"\S+ exceeded its memory limit:"#, options: .regularExpression) {
                current = String(line[range].dropLast(" exceeded its memory limit:".count))
                continue
            }
            guard let name = current,
                  let range = line.range(of: #"\d+ allocations, \d+ bytes allocated, peak \d+ bytes live, \d+ bytes retained in \d+ blocks"#,
                                         options: .regularExpression) else { continue }
            let numbers = line[range].split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 5 else { continue }
            found[name, default: []].append(Measured(allocations: numbers[0], bytes: numbers[1], peak: numbers[2],
                                                      retained: numbers[3], blocks: numbers[4]))
            current = nil
        }
        return found
    }

    /// The report's rows by component, from `profctl report --format json`.
    static func reportRows(_ folder: URL) throws -> [String: [String: Any]] {
        let report = try ProfctlProcess.run(["report", "--db", "tests.sqlite", "--scenario", scenario, "--format", "json"], in: folder)
        try #require(report.status == 0, "report: \(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        return Dictionary(rows.map { ($0["component"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test("each limited test is a component of one run; the report holds what the traits measured")
    func reportHoldsWhatTheTraitsMeasured() throws {
        let folder = try TemporaryFolder()
        let run = try Self.runFixture(mode: "tight", database: "tests.sqlite", in: folder.url)
        let output = run.stdout + run.stderr
        #expect(run.status != 0, "every fixture test breaks its tight limit")
        let measured = Self.measured(in: output)
        try #require(Set(measured.keys) == ["keepsABlock()", "buildsABuffer(count:)", "freesItsScratch()"], "\(output)")

        let runs = try ProfctlProcess.run(["runs", "--db", "tests.sqlite", "--format", "csv"], in: folder.url)
        #expect(runs.status == 0)
        #expect(runs.stdout.components(separatedBy: "\n").filter { $0.contains(Self.scenario) && $0.contains("complete") }.count == 1,
                "one complete run per test process: \(runs.stdout)")

        let rows = try Self.reportRows(folder.url)
        #expect(Set(rows.keys) == ["TestFiguresFixture/keepsABlock()", "TestFiguresFixture/buildsABuffer(count:)",
                                   "TestFiguresFixture/freesItsScratch()"], "a test without a limit has no row")
        for (test, cases) in measured {
            let row = try #require(rows["TestFiguresFixture/" + test])
            #expect(row["cases"] as? Double == Double(cases.count), "\(test)")
            // Per case in the report (to 0.01): the traits' figures summed over the cases, divided.
            func perCase(_ figure: (Measured) -> Double) -> Double {
                (cases.map(figure).reduce(0, +) / Double(cases.count) * 100).rounded() / 100
            }
            #expect(row["allocations"] as? Double == perCase(\.allocations), "\(test): \(row)")
            #expect(row["bytes_allocated"] as? Double == perCase(\.bytes), "\(test): \(row)")
            #expect(row["peak_bytes"] as? Double == perCase(\.peak), "\(test): \(row)")
            #expect(row["bytes_retained"] as? Double == perCase(\.retained), "\(test): \(row)")
            #expect(row["blocks_retained"] as? Double == perCase(\.blocks), "\(test): \(row)")
        }
        // The limits in force, as the traits set them (suite defaults included).
        #expect(rows[Self.keepsABlock]?["bytes_limit"] as? Double == 1)
        #expect(rows[Self.keepsABlock]?["allocations_limit"] as? Double == 1_000)
        #expect(rows["TestFiguresFixture/freesItsScratch()"]?["retained_limit"] as? Double == 0)
        #expect(rows["TestFiguresFixture/buildsABuffer(count:)"]?["peak_limit"] as? Double == 1)
        #expect(rows[Self.keepsABlock]?["peak_limit"] is NSNull)
    }

    @Test("check --baseline previous with a budget keyed on a test passes a repeat and names the test that regressed; trend shows it")
    func checkAndTrendOnTestFigures() throws {
        let folder = try TemporaryFolder()
        // Two identical runs, then a third whose keepsABlock keeps 512 bytes more.
        for extra in [0, 0, 512] {
            let run = try Self.runFixture(mode: "pass", database: "tests.sqlite", extraBytes: extra, in: folder.url)
            try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        let rows = try Self.reportRows(folder.url)
        // bytes_allocated: the figure keepsABlock's extra bytes change whatever else it keeps.
        let grown = try #require(rows[Self.keepsABlock]?["bytes_allocated"] as? Double)
        // Between the first runs' figure and the third's: the third is over it.
        try Data("""
            budgets:
              - scenario: \(Self.scenario)
                component: \(Self.keepsABlock)
                metric: bytes_allocated
                max: \(Int(grown) - 256)
            """.utf8).write(to: folder.url.appendingPathComponent("budgets.yaml"))

        let trend = try ProfctlProcess.run(["trend", "--db", "tests.sqlite", "--scenario", Self.scenario, "--metric", "bytes_allocated",
                                            "--component", Self.keepsABlock, "--format", "json"], in: folder.url)
        #expect(trend.status == 0, "\(trend.stderr)")
        let series = (try JSONSerialization.jsonObject(with: Data(trend.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(series.compactMap { $0["value"] as? Double } == [grown - 512, grown - 512, grown], "\(trend.stdout)")

        let regressed = try ProfctlProcess.run(["check", "--db", "tests.sqlite", "--scenario", Self.scenario, "--baseline", "previous",
                                                "--budget", "budgets.yaml"] + Self.documentedTolerance, in: folder.url)
        #expect(regressed.status == 2, "\(regressed.stdout)\(regressed.stderr)")
        let rowsNamed = regressed.stdout.components(separatedBy: "\n").filter { $0.contains("TestFiguresFixture/") }
        #expect(rowsNamed.contains { $0.contains("peak_bytes") && $0.contains(Self.keepsABlock) && $0.contains(" regression ") },
                "\(regressed.stdout)")
        #expect(rowsNamed.contains { $0.contains("bytes_allocated") && $0.contains(Self.keepsABlock) && $0.contains(" over-budget ") },
                "\(regressed.stdout)")
        #expect(rowsNamed.allSatisfy { $0.contains(Self.keepsABlock) }, "only the test that grew: \(regressed.stdout)")

        // The first two runs alone: the repeat passes, budget and baseline.
        let runs = try ProfctlProcess.run(["query", "--db", "tests.sqlite", "--format", "csv",
                                           "SELECT run_id FROM runs ORDER BY started_at"], in: folder.url)
        let ids = runs.stdout.split(whereSeparator: \.isNewline).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        try #require(ids.count == 3, "\(runs.stdout)")
        let repeated = try ProfctlProcess.run(["check", "--db", "tests.sqlite", "--run", ids[1], "--baseline", "previous",
                                               "--budget", "budgets.yaml"] + Self.documentedTolerance, in: folder.url)
        #expect(repeated.status == 0, "\(repeated.stdout)\(repeated.stderr)")
    }

    @Test("unset, nothing is written and the figures are those measured with it set")
    func unsetWritesNothing() throws {
        let folder = try TemporaryFolder()
        let unset = try Self.runFixture(mode: "tight", database: nil, in: folder.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        let other = try TemporaryFolder()
        let set = try Self.runFixture(mode: "tight", database: "tests.sqlite", in: other.url)
        let without = Self.measured(in: unset.stdout + unset.stderr), with = Self.measured(in: set.stdout + set.stderr)
        #expect(without.count == 3)
        // Every figure, retained ones too: a body's task is released before its meter closes
        // (TaskMeter), so what it kept no longer depends on load.
        func counted(_ figures: [String: [Measured]]) -> [String: [[Double]]] {
            figures.mapValues { $0.map { [$0.allocations, $0.bytes, $0.peak, $0.retained, $0.blocks] } }
        }
        #expect(counted(without) == counted(with))
    }

    @Test("a path it cannot write, a damaged file or an empty value fails the tests, naming the variable and the path",
          arguments: ["missing-folder/tests.sqlite", "damaged.sqlite", ""])
    func badDatabasesFailTheTests(_ path: String) throws {
        let folder = try TemporaryFolder()
        let damaged = Data(repeating: 0x5A, count: 4_096)
        try damaged.write(to: folder.url.appendingPathComponent("damaged.sqlite"))
        let run = try Self.runFixture(mode: "pass", database: path, in: folder.url)
        let output = run.stdout + run.stderr
        #expect(run.status != 0, "the tests passed with their figures lost: \(output)")
        #expect(output.contains("PROFCTL_TEST_DB=\(path): keepsABlock()'s memory figures were not recorded: "), "\(output)")
        // Nothing half-written: the damaged file untouched, no folder made, nothing beside.
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("damaged.sqlite")) == damaged)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["damaged.sqlite"])
    }

    @Test("a run that cannot be completed at exit is marked aborted, named on stderr, and the test process exits 1")
    func aRunNotCompletedFailsTheProcess() throws {
        let folder = try TemporaryFolder()
        let first = try Self.runFixture(mode: "pass", database: "tests.sqlite", in: folder.url)
        try #require(first.status == 0, "\(first.stdout)\(first.stderr)")
        // The database refuses to mark a run complete: the rollups' transaction at exit fails.
        let trigger = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", "tests.sqlite", """
            CREATE TRIGGER refuse_completion BEFORE UPDATE OF status ON runs WHEN NEW.status = 'complete'
            BEGIN SELECT RAISE(ABORT, 'completion refused by the test'); END;
            """], in: folder.url)
        try #require(trigger.status == 0, "\(trigger.stderr)")
        let run = try Self.runFixture(mode: "pass", database: "tests.sqlite", in: folder.url)
        #expect(run.status == 1, "the tests passed, their figures did not land: \(run.stdout)\(run.stderr)")
        #expect((run.stdout + run.stderr).contains(
            "PROFCTL_TEST_DB=tests.sqlite: the run of \(Self.scenario)'s test figures could not be completed and is marked aborted: "))
        let check = try ProfctlProcess.run(["check", "--db", "tests.sqlite", "--baseline", "previous"], in: folder.url)
        #expect(check.status == 13, "an aborted run is no result: \(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("is aborted"))
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of a Markdown file's `fence` blocks inside its section `heading`.
    static func blocks(_ fence: String, in file: String, section heading: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let section = text.components(separatedBy: "\n## ").first { $0.hasPrefix(heading + "\n") } ?? ""
        var lines: [String] = [], inside = false
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inside = !inside && line == "```" + fence; continue }
            if inside { lines.append(line) }
        }
        return lines
    }

    /// The documentation's names (Examples/MemoryLimits') as the fixture has them.
    static func fixtureNames(_ text: String) -> String {
        text.replacingOccurrences(of: "InventoryTests/addingAFewItems()", with: keepsABlock)
            .replacingOccurrences(of: "InventoryTests", with: scenario)
    }

    /// docs/testing.md's and docs/ci.md's commands on test figures, on two runs of the fixture.
    /// They are in `shell` blocks, which DocumentedExamplesTests leaves alone: its prepared
    /// folder has no test run; here they run on one.
    @Test("the documented commands on a test database run as printed and exit 0")
    func documentedCommandsRun() throws {
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            let run = try Self.runFixture(mode: "pass", database: "tests.sqlite", in: folder.url)
            try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        let budgets = try Self.blocks("yaml", in: "docs/ci.md", section: "Tests' figures").joined(separator: "\n")
        try Data(Self.fixtureNames(budgets).utf8).write(to: folder.url.appendingPathComponent("test-budgets.yaml"))
        let commands = try Self.blocks("shell", in: "docs/testing.md", section: "Figures in a database")
            + Self.blocks("shell", in: "docs/ci.md", section: "Tests' figures")
        let profctl = commands.filter { $0.hasPrefix("profctl ") }
        #expect(profctl.count >= 6)
        let path = ProfctlProcess.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for command in profctl {
            let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/bin/bash"), ["-c", Self.fixtureNames(command)],
                                                environment: ["PATH": path], in: folder.url)
            #expect(result.status == 0, "`\(command)` exited \(result.status): \(result.stdout)\(result.stderr)")
        }
    }
}
