import Foundation
import Testing

/// `check --leaks` through the real binary: its exit code, its budget keys, every format
/// naming component and strategy.
@Suite("check --leaks through profctl")
struct LeakCheckProcessTests {
    func record(_ arguments: [String], in folder: TemporaryFolder) throws {
        let result = try ProfctlProcess.run(["record"] + arguments + ["--quiet", "--db", "profile.sqlite"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("real leaks fail with exit 15 in every format, naming component and strategy; their fixed twins pass")
    func leaksFail() throws {
        let folder = try TemporaryFolder()
        try record(["swift-leaks", "--instances", "5", "--repeat", "3"], in: folder)
        for format in ["table", "markdown", "junit", "github", "json"] {
            let check = try ProfctlProcess.run(["check", "--leaks", "--format", format], in: folder.url)
            #expect(check.status == 15, "\(format): \(check.stderr)")
            for name in ["ticker-screen", "strong-self-closure", "download-screen", "strong-delegate", "themed-screen", "unpruned-observers"] {
                #expect(check.stdout.contains(name), "\(format) lacks \(name)")
            }
        }
        let junit = try ProfctlProcess.run(["check", "--leaks", "--format", "junit"], in: folder.url)
        #expect(junit.stdout.contains("<testcase classname=\"swift-leaks.ticker-screen\" name=\"strong-self-closure\"><failure"))
        #expect(junit.stdout.contains("<testcase classname=\"swift-leaks.ticker-screen\" name=\"weak-self-closure\"><system-out>"))
        let json = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let verdicts = try #require((object["leaks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
        let fixed = try #require(verdicts.first { $0["strategy"] as? String == "pruned-observers" })
        #expect(fixed["status"] as? String == "pass" && fixed["retained_bytes"] as? Int == 0)
        let leaking = try #require(verdicts.first { $0["strategy"] as? String == "unpruned-observers" })
        #expect(leaking["status"] as? String == "retained" && (leaking["growth_bytes_per_round"] as? Double ?? 0) > 0)
    }

    @Test("with --sites, every format names the functions that allocated what the leaking strategies left; the fixed twins name none")
    func leaksNameTheirSites() throws {
        let folder = try TemporaryFolder()
        try record(["swift-leaks", "--instances", "5", "--repeat", "3", "--sites"], in: folder)
        // What each leaking strategy leaves: the screen its init builds (and what that holds).
        let named = ["strong-self-closure": "ProfilerCatalog.TickerScreen.__allocating_init",
                     "strong-delegate": "ProfilerCatalog.StrongDelegateDownloader.init",
                     "unpruned-observers": "ProfilerCatalog.ThemedScreen.init"]
        for format in ["table", "markdown", "junit", "github", "json"] {
            let check = try ProfctlProcess.run(["check", "--leaks", "--format", format], in: folder.url)
            #expect(check.status == 15, "\(format): \(check.stderr)")
            for function in named.values { #expect(check.stdout.contains(function), "\(format) lacks \(function)") }
        }
        let github = try ProfctlProcess.run(["check", "--leaks", "--format", "github"], in: folder.url).stdout
        for line in github.split(separator: "\n") where line.contains("-closure:") || line.contains("-delegate:") || line.contains("-observers:") {
            let leaking = named.keys.contains { line.contains(" \($0): ") }
            #expect(line.contains("; allocated by ") == leaking, "\(line)")
        }
        let json = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let verdicts = try #require((object["leaks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
        #expect(verdicts.count == 6)
        for verdict in verdicts {
            let strategy = verdict["strategy"] as? String ?? ""
            let sites = try #require(verdict["sites"] as? [[String: Any]], "\(strategy) has no sites list")
            if let function = named[strategy] {
                // Every round of a leaking strategy leaves bytes, so no round is clamped at zero:
                // its sites add up to its retained bytes exactly, largest first.
                let bytes = sites.compactMap { $0["bytes"] as? Int }
                #expect(bytes.reduce(0, +) == verdict["retained_bytes"] as? Int, "\(strategy): \(sites)")
                #expect(bytes == bytes.sorted(by: >))
                #expect(sites.contains { ($0["function"] as? String)?.hasPrefix(function) == true }, "\(strategy): \(sites)")
            } else {
                #expect(sites.isEmpty && verdict["status"] as? String == "pass", "\(strategy): \(sites)")
            }
        }

        // Recorded without --sites: no list (null), and the notes stay about trusting the verdicts.
        try record(["swift-leaks", "--instances", "5", "--repeat", "3", "--strategies", "strong-self-closure"], in: folder)
        let plain = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        let plainObject = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let check = try #require((plainObject["leaks"] as? [[String: Any]])?.first)
        #expect((check["verdicts"] as? [[String: Any]])?.first?["sites"] is NSNull)
        #expect((check["notes"] as? [String])?.isEmpty == true, "\(check)")
    }

    @Test("fixed twins alone pass (exit 0); budget keys allow retention, and growth beyond its own budget fails")
    func budgets() throws {
        let folder = try TemporaryFolder()
        try record(["swift-leaks", "--instances", "5", "--repeat", "3", "--strategies", "weak-self-closure,weak-delegate,pruned-observers"], in: folder)
        let clean = try ProfctlProcess.run(["check", "--leaks"], in: folder.url)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        try record(["swift-leaks", "--instances", "5", "--repeat", "3", "--strategies", "unpruned-observers"], in: folder)
        let budgets = folder.url.appendingPathComponent("leaks.yaml")
        try """
            budgets:
              - scenario: swift-leaks
                strategy: unpruned-observers
                metric: retained_bytes
                max: 100000
              - scenario: swift-leaks
                metric: growth_bytes_per_round
                max: 100000
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let allowed = try ProfctlProcess.run(["check", "--leaks", "--budget", budgets.path], in: folder.url)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stdout.contains("allowed"))
        try """
            budgets:
              - scenario: swift-leaks
                metric: retained_bytes
                max: 100000
              - scenario: swift-leaks
                metric: growth_bytes_per_round
                max: 1
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let growing = try ProfctlProcess.run(["check", "--leaks", "--budget", budgets.path], in: folder.url)
        #expect(growing.status == 15, "\(growing.stdout)\(growing.stderr)")
        #expect(growing.stdout.contains("growing"))
    }

    @Test("usage mistakes exit 64: --leaks with a baseline or a PostgreSQL store, a leak budget with min, a strategy that does not exist")
    func usage() throws {
        let folder = try TemporaryFolder()
        try record(["swift-leaks", "--instances", "2"], in: folder)
        let baseline = try ProfctlProcess.run(["check", "--leaks", "--baseline", "previous"], in: folder.url)
        #expect(baseline.status == 64)
        let tolerance = try ProfctlProcess.run(["check", "--leaks", "--tolerance", "2%"], in: folder.url)
        #expect(tolerance.status == 64 && tolerance.stderr.contains("budget keys"), "\(tolerance.stderr)")
        let store = try ProfctlProcess.run(["check", "--leaks", "--store", "postgres://ci@db.example/profctl"], in: folder.url)
        #expect(store.status == 64 && store.stderr.contains("SQLite"), "\(store.stderr)")
        let budgets = folder.url.appendingPathComponent("b.yaml")
        try "budgets:\n  - scenario: swift-leaks\n    metric: retained_bytes\n    min: 1\n".write(to: budgets, atomically: true, encoding: .utf8)
        let minimum = try ProfctlProcess.run(["check", "--leaks", "--budget", budgets.path], in: folder.url)
        #expect(minimum.status == 64 && minimum.stderr.contains("max:"), "\(minimum.stderr)")
        try "budgets:\n  - scenario: swift-leaks\n    strategy: weak-selfie\n    metric: retained_bytes\n    max: 1\n".write(to: budgets, atomically: true, encoding: .utf8)
        let unknown = try ProfctlProcess.run(["check", "--leaks", "--budget", budgets.path], in: folder.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("weak-self-closure"), "\(unknown.stderr)")
    }
}
