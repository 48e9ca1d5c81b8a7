import Foundation
import Testing

/// The ways a new user found the gate passing what it must fail (the review of
/// check, baseline and merge): each through the real binary, as CI runs it.
@Suite("check: the review's ways through the gate")
struct GateReviewProcessTests {
    @discardableResult
    func profctl(_ arguments: [String], in folder: TemporaryFolder) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(arguments, in: folder.url)
    }

    func newestRunID(db: String = "profile.sqlite", scenario: String, in folder: TemporaryFolder) throws -> String {
        let result = try profctl(["query", "SELECT run_id FROM runs WHERE scenario = '\(scenario)' ORDER BY started_at DESC LIMIT 1",
                                  "--db", db, "--format", "csv"], in: folder)
        return try #require(result.stdout.split(whereSeparator: \.isNewline).dropFirst().first.map(String.init), "\(result.stderr)")
    }

    func writeBudgets(_ text: String, in folder: TemporaryFolder, name: String = "budgets.yaml") throws -> String {
        try text.write(to: folder.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return name
    }

    // MARK: 1. the main baseline moves forward through merge

    @Test("docs/ci.md's main-branch jobs, three times: history's main label names the newest run, and merge says it moved")
    func mainBaselineMovesForward() throws {
        let folder = try TemporaryFolder()
        let history = folder.url.appendingPathComponent("history.sqlite").path
        var newest = ""
        for job in 1...3 {
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("run.sqlite"))
            try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "run.sqlite", in: folder)
            newest = try newestRunID(db: "run.sqlite", scenario: "lazy-container", in: folder)
            // "Check against main's baseline"
            if FileManager.default.fileExists(atPath: history) {
                let merged = try profctl(["merge", "run.sqlite", "history.sqlite"], in: folder)
                #expect(merged.status == 0, "\(merged.stderr)")
                let check = try profctl(["check", "--db", "run.sqlite", "--baseline", "main"], in: folder)
                #expect(check.status == 0, "job \(job): \(check.stdout)\(check.stderr)")
            }
            // "Keep the history (main only)"
            let set = try profctl(["baseline", "set", "main", "--db", "run.sqlite"], in: folder)
            #expect(set.status == 0, "\(set.stderr)")
            let kept = try profctl(["merge", "history.sqlite", "run.sqlite"], in: folder)
            #expect(kept.status == 0, "\(kept.stderr)")
            if job > 1 {
                #expect(kept.stderr.contains("main: lazy-container") && kept.stderr.contains(String(newest.prefix(8))),
                        "job \(job) does not say the label moved: \(kept.stderr)")
            }
        }
        let labels = try profctl(["baseline", "list", "--db", "history.sqlite", "--format", "csv"], in: folder)
        let main = labels.stdout.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("main,lazy-container,") }
        #expect(main.count == 1 && main.first?.contains(newest) == true, "history's main is not the third run \(newest): \(labels.stdout)")
    }

    @Test("merge keeps the newer label: an older input does not move it back")
    func olderLabelDoesNotWin() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "old.sqlite", in: folder)
        #expect(try profctl(["baseline", "set", "main", "--db", "old.sqlite"], in: folder).status == 0)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "new.sqlite", in: folder)
        #expect(try profctl(["baseline", "set", "main", "--db", "new.sqlite"], in: folder).status == 0)
        let newRun = try newestRunID(db: "new.sqlite", scenario: "lazy-container", in: folder)
        #expect(try profctl(["merge", "history.sqlite", "new.sqlite"], in: folder).status == 0)
        let merged = try profctl(["merge", "history.sqlite", "old.sqlite"], in: folder)
        #expect(merged.status == 0 && !merged.stderr.contains("main: lazy-container"), "\(merged.stderr)")
        let labels = try profctl(["baseline", "list", "--db", "history.sqlite", "--format", "csv"], in: folder).stdout
        #expect(labels.contains("main,lazy-container,\(newRun)"), "\(labels)")
    }

    // MARK: 2. a mistyped label

    @Test("a label that does not exist while others do: exit 64 listing them, in every format; baseline rm too")
    func mistypedLabel() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        #expect(try profctl(["baseline", "set", "main"], in: folder).status == 0)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        for format in ["table", "github", "json", "junit", "markdown"] {
            let check = try profctl(["check", "--baseline", "mian", "--format", format], in: folder)
            #expect(check.status == 64, "\(format): \(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("mian") && check.stderr.contains("main"), "\(check.stderr)")
        }
        let remove = try profctl(["baseline", "rm", "mian"], in: folder)
        #expect(remove.status == 64 && remove.stderr.contains("main"), "\(remove.status) \(remove.stderr)")
    }

    @Test("no baseline yet (exit 5) prints the scenario not checked in every format")
    func noBaselineYetIsInTheOutput() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        for format in ["table", "github", "json", "junit", "markdown"] {
            let check = try profctl(["check", "--baseline", "main", "--format", format], in: folder)
            #expect(check.status == 5, "\(format): \(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("lazy-container") && check.stdout.contains("no-baseline"), "\(format): '\(check.stdout)'")
        }
        // The label exists, but not for this scenario: still "no baseline yet".
        try ProfctlProcess.record(["image-cache"], in: folder)
        #expect(try profctl(["baseline", "set", "main", "--run", try newestRunID(scenario: "image-cache", in: folder)], in: folder).status == 0)
        let check = try profctl(["check", "--baseline", "main", "--scenario", "lazy-container", "--format", "github"], in: folder)
        #expect(check.status == 5 && check.stdout.contains("no-baseline"), "\(check.stdout)\(check.stderr)")
    }

    // MARK: 3. check --leaks fails closed

    @Test("--leaks with a misspelt budget metric: exit 64 naming it and its line")
    func leaksMisspeltMetric() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--strategies", "weak-self-closure"], in: folder)
        let misspelt = try writeBudgets("""
            budgets:
              - scenario: swift-leaks
                component: ticker-screen
                strategy: weak-self-closure
                metric: growth_bytes_per_roud
                max: 100
              - scenario: swift-leaks
                metric: retained_bytes
                max: 100
            """, in: folder)
        let check = try profctl(["check", "--leaks", "--budget", misspelt], in: folder)
        // The budget's origin is the line its entry starts on; the leak keys are among the choices.
        #expect(check.status == 64 && check.stderr.contains("growth_bytes_per_roud") && check.stderr.contains("budgets.yaml:2")
                    && check.stderr.contains("growth_bytes_per_round"),
                "\(check.status) \(check.stderr)")
        let alone = try writeBudgets("""
            budgets:
              - scenario: swift-leaks
                metric: retained_byte
                max: 100
            """, in: folder, name: "alone.yaml")
        let single = try profctl(["check", "--leaks", "--budget", alone], in: folder)
        #expect(single.status == 64 && single.stderr.contains("retained_byte") && single.stderr.contains("alone.yaml:2") && single.stderr.contains("retained_bytes"),
                "\(single.status) \(single.stderr)")
    }

    @Test("--leaks with a leak budget for a scenario that has no run: missing, exit 12, in the output")
    func leaksBudgetWithoutRun() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--strategies", "weak-self-closure"], in: folder)
        let budgets = try writeBudgets("""
            budgets:
              - scenario: lazy-container
                metric: retained_bytes
                max: 100
            """, in: folder)
        for format in ["table", "json", "github"] {
            let check = try profctl(["check", "--leaks", "--budget", budgets, "--format", format], in: folder)
            #expect(check.status == 12, "\(format): \(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("lazy-container"), "\(format): \(check.stdout)")
        }
    }

    @Test("--leaks on a run without events: nothing judged is no pass (exit 12)")
    func leaksRunWithoutEvents() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--strategies", "weak-self-closure"], in: folder)
        let run = try newestRunID(scenario: "swift-leaks", in: folder)
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        let emptied = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                             [db, "PRAGMA foreign_keys = ON; DELETE FROM events; DELETE FROM event_series;"], in: folder.url)
        #expect(emptied.status == 0, "\(emptied.stderr)")
        let check = try profctl(["check", "--leaks", "--run", String(run.prefix(8))], in: folder)
        #expect(check.status == 12, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("no events"), "\(check.stdout)")
    }

    // MARK: 4. a budgets file with nothing for the scenario checked

    @Test("--budget with no budget for the scenario checked gates nothing: exit 64 naming the file's scenarios")
    func budgetForAnotherScenario() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["image-cache"], in: folder)
        let budgets = try writeBudgets("""
            budgets:
              - scenario: lazy-container
                metric: bytes_per_instance
                max: 100000
            """, in: folder)
        let check = try profctl(["check", "--budget", budgets, "--scenario", "image-cache"], in: folder)
        #expect(check.status == 64, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("image-cache") && check.stderr.contains("lazy-container"), "\(check.stderr)")
        let byRun = try profctl(["check", "--budget", budgets, "--run", String(try newestRunID(scenario: "image-cache", in: folder).prefix(8))], in: folder)
        #expect(byRun.status == 64, "\(byRun.stdout)\(byRun.stderr)")
        let own = try profctl(["check", "--budget", budgets, "--scenario", "lazy-container"], in: folder)
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
    }

    // MARK: 5. a label that shadows a run id

    @Test("a label that looks like a run id is refused (exit 64); the run id still works as a baseline")
    func labelShadowingRunID() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let first = try newestRunID(scenario: "lazy-container", in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let second = try newestRunID(scenario: "lazy-container", in: folder)
        let shadow = try profctl(["baseline", "set", String(first.prefix(8)), "--run", String(second.prefix(8))], in: folder)
        #expect(shadow.status == 64, "\(shadow.stderr)")
        #expect(shadow.stderr.contains(String(first.prefix(8))), "\(shadow.stderr)")
        let hexLike = try profctl(["baseline", "set", "deadbeef"], in: folder)
        #expect(hexLike.status == 64, "\(hexLike.stderr)")
        let labels = try profctl(["baseline", "list", "--format", "csv"], in: folder).stdout
        #expect(labels.split(whereSeparator: \.isNewline).count == 1, "\(labels)")
        #expect(try profctl(["baseline", "set", "main"], in: folder).status == 0)
    }

    // MARK: 6. baselines of another workload

    @Test("previous and median:N pick runs of the same parameters; a label on another workload exits 6 unless allowed")
    func baselinesOfAnotherWorkload() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-list", "--set", "rows=100"], in: folder)
        #expect(try profctl(["baseline", "set", "main"], in: folder).status == 0)
        try ProfctlProcess.record(["lazy-list", "--set", "rows=200"], in: folder)
        // The only earlier run is another workload: refused like another environment.
        let refused = try profctl(["check", "--baseline", "previous"], in: folder)
        #expect(refused.status == 6, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("rows 100") && refused.stderr.contains("--allow-param-mismatch"), "\(refused.stderr)")
        let label = try profctl(["check", "--baseline", "main"], in: folder)
        #expect(label.status == 6, "\(label.stdout)\(label.stderr)")
        let allowed = try profctl(["check", "--baseline", "main", "--allow-param-mismatch"], in: folder)
        #expect(allowed.status != 6 && allowed.stdout.contains("parameters differ from the baseline: rows 100"), "\(allowed.stdout)\(allowed.stderr)")

        // A third run like the first: previous skips the rows=200 run and finds its twin.
        try ProfctlProcess.record(["lazy-list", "--set", "rows=100"], in: folder)
        let first = try profctl(["query", "SELECT run_id FROM runs ORDER BY started_at LIMIT 1", "--format", "csv"], in: folder)
            .stdout.split(whereSeparator: \.isNewline).dropFirst().first.map(String.init) ?? ""
        let twin = try profctl(["check", "--baseline", "previous", "--format", "json"], in: folder)
        #expect(twin.status == 0, "\(twin.stdout)\(twin.stderr)")
        #expect(!first.isEmpty && twin.stdout.contains(first), "\(twin.stdout)")
        // median:50 over the one eligible run says so.
        let median = try profctl(["check", "--baseline", "median:50"], in: folder)
        #expect(median.status == 0, "\(median.stdout)\(median.stderr)")
        #expect(median.stdout.contains("median:50 is the median of 1 run, not 50"), "\(median.stdout)")
    }
}
