import Foundation
import Testing

/// `check` on the objects of each Swift type per instance (runs recorded with --types,
/// docs/ci.md "Objects per type"), through the real binary, with recordings that really
/// differ: live-room's lazy panels opened by none of the script (0 %) or all of it (100 %).
@Suite("check gates objects per type")
struct TypeCheckProcessTests {
    /// The budgets file docs/ci.md shows under "Objects per type": its yaml block that names
    /// `objects_per_instance`. DocumentedExamplesTests writes it as `types-budgets.yaml`.
    static func documentedBudgets() throws -> String {
        let text = try String(contentsOf: DocumentedExamplesTests.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
        return try #require(blocks.first { $0.contains("metric: objects_per_instance") })
    }

    /// Two live-room runs whose lazy panels differ: none opened, then all opened.
    func openedNoneThenAll(_ folder: TemporaryFolder) throws {
        try ProfctlProcess.record(["live-room", "--types", "--strategies", "lazy", "--set", "opened_percent=0"], in: folder)
        try ProfctlProcess.record(["live-room", "--types", "--strategies", "lazy", "--set", "opened_percent=100"], in: folder)
    }

    @Test("one object more per instance of a type is a regression that names the type, in every format")
    func grownTypeNamed() throws {
        let folder = try TemporaryFolder()
        try openedNoneThenAll(folder)
        let check = ["check", "--baseline", "previous", "--allow-param-mismatch"]
        // Every realized badge builds one Label: +1 per instance, a type the baseline did not have.
        let grew = "+1 ProfilerCatalog.Label per instance"
        for format in ["table", "markdown", "junit", "github", "json"] {
            let result = try ProfctlProcess.run(check + ["--format", format], in: folder.url)
            #expect(result.status == 2, "\(format): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(grew), "\(format): \(result.stdout)")
            #expect(result.stdout.contains("objects_per_instance[ProfilerCatalog.Label]"), "\(format): \(result.stdout)")
        }
        let junit = try ProfctlProcess.run(check + ["--format", "junit"], in: folder.url)
        #expect(junit.stdout.contains("<failure message=\"live-room / badge / lazy / objects_per_instance[ProfilerCatalog.Label]: 0 -&gt; 1"),
                "\(junit.stdout)")
        let github = try ProfctlProcess.run(check + ["--format", "github"], in: folder.url)
        #expect(github.stdout.split(separator: "\n").contains { $0.hasPrefix("::error") && $0.contains(grew) }, "\(github.stdout)")
        let json = try ProfctlProcess.run(check + ["--format", "json"], in: folder.url)
        let verdict = try #require(try verdicts(json.stdout).first {
            $0["metric"] as? String == "objects_per_instance[ProfilerCatalog.Label]" && $0["component"] as? String == "badge"
        })
        #expect(verdict["status"] as? String == "regression" && verdict["fails"] as? Bool == true)
        #expect(verdict["baseline"] as? Double == 0 && verdict["current"] as? Double == 1)
        #expect((verdict["note"] as? String)?.hasPrefix(grew) == true, "\(verdict)")

        // The other way round the types vanish: improvements, never `missing`.
        let listing = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        let runs = listing.stdout.split(whereSeparator: \.isNewline).dropFirst().map { String($0.prefix(while: { $0 != "," })) }
        let (newer, older) = (try #require(runs.first, "\(listing.stdout)\(listing.stderr)"), try #require(runs.last))
        let back = try ProfctlProcess.run(["check", "--run", older, "--baseline", newer, "--allow-param-mismatch", "--format", "json"],
                                          in: folder.url)
        let typed = try verdicts(back.stdout).filter { ($0["metric"] as? String)?.hasPrefix("objects_per_instance[") == true }
        // (The lazy containers themselves are built either way: those pass.)
        #expect(typed.contains { $0["status"] as? String == "improvement" }, "\(typed)")
        #expect(typed.allSatisfy { ["improvement", "pass"].contains($0["status"] as? String ?? "") }, "\(typed)")
        #expect(back.stdout.contains("-1 ProfilerCatalog.Label per instance"), "\(back.stdout)")

        // A tolerance for the family covers every type (the other metrics still regress).
        let tolerant = try ProfctlProcess.run(check + ["--tolerance", "objects_per_instance=8", "--format", "json"], in: folder.url)
        let tolerated = try verdicts(tolerant.stdout).filter { ($0["metric"] as? String)?.hasPrefix("objects_per_instance[") == true }
        #expect(!tolerated.isEmpty && tolerated.allSatisfy { $0["status"] as? String == "pass" }, "\(tolerated)")
    }

    @Test("identical recordings with --types pass, each type's objects per instance compared")
    func identicalPass() throws {
        let folder = try TemporaryFolder()
        for _ in 0..<2 { try ProfctlProcess.record(["lazy-container", "swift-leaks", "--types", "--instances", "20"], in: folder) }
        let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", "json"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let typed = try verdicts(check.stdout).filter { ($0["metric"] as? String)?.hasPrefix("objects_per_instance[") == true }
        #expect(typed.count > 20 && typed.allSatisfy { $0["status"] as? String == "pass" }, "\(typed)")
        #expect(typed.contains { $0["metric"] as? String == "objects_per_instance[ProfilerCatalog.TickerScreen]" && $0["current"] as? Double == 1 })

        // trend follows one type over the runs; the family alone names many series: exit 64.
        let one = try ProfctlProcess.run(["trend", "--scenario", "swift-leaks", "--metric", "objects_per_instance[ProfilerCatalog.TickerScreen]",
                                          "--format", "csv"], in: folder.url)
        #expect(one.status == 0, "\(one.stderr)")
        // Two strategies build a TickerScreen, one per instance in both runs.
        #expect(one.stdout.split(whereSeparator: \.isNewline).dropFirst().filter { $0.contains("ticker-screen") && $0.contains(",1,") }.count == 4,
                "\(one.stdout)")
        let family = try ProfctlProcess.run(["trend", "--scenario", "swift-leaks", "--metric", "objects_per_instance"], in: folder.url)
        #expect(family.status == 64 && family.stdout.isEmpty && family.stderr.contains("objects_per_instance[TYPE]"), "\(family.stderr)")
        let typo = try ProfctlProcess.run(["trend", "--scenario", "swift-leaks", "--metric", "objects_per_instance[ProfilerCatalog.TikerScreen]"],
                                          in: folder.url)
        #expect(typo.status == 64 && typo.stdout.isEmpty, "\(typo.stdout)\(typo.stderr)")
        // With the valid choices, as a budget's type: gets them.
        #expect(typo.stderr.contains("no type named 'ProfilerCatalog.TikerScreen'") && typo.stderr.contains("ProfilerCatalog.TickerScreen"),
                "\(typo.stderr)")
    }

    @Test("a run and a baseline of which only one has types: exit 6 saying to record both with --types; allowed, a note")
    func typesOnOneSide() throws {
        for typesFirst in [true, false] {
            let folder = try TemporaryFolder()
            try ProfctlProcess.record(["lazy-container", "--instances", "10"] + (typesFirst ? ["--types"] : []), in: folder)
            try ProfctlProcess.record(["lazy-container", "--instances", "10"] + (typesFirst ? [] : ["--types"]), in: folder)
            let refused = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
            #expect(refused.status == 6, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("Record both runs with --types") && refused.stderr.contains("--allow-env-mismatch"), "\(refused.stderr)")
            let allowed = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-env-mismatch", "--format", "json"], in: folder.url)
            #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
            #expect(allowed.stdout.contains("objects per type not compared") && !allowed.stdout.contains("objects_per_instance["),
                    "\(allowed.stdout)")
        }
    }

    @Test("budgets on a type: docs/ci.md's holds; a lower max breaks; a typo'd type exits 64 with the known types")
    func budgets() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "20"], in: folder)
        let documented = try Self.documentedBudgets()
        let file = folder.url.appendingPathComponent("budgets.yaml")
        try Data(documented.utf8).write(to: file)
        let holds = try ProfctlProcess.run(["check", "--budget", "budgets.yaml", "--format", "json"], in: folder.url)
        #expect(holds.status == 0, "\(holds.stdout)\(holds.stderr)")
        #expect(try verdicts(holds.stdout).contains {
            ($0["metric"] as? String)?.hasPrefix("objects_per_instance[ProfilerPrimitives.LazyContainer<") == true && $0["status"] as? String == "pass"
        }, "\(holds.stdout)")

        try Data(documented.replacingOccurrences(of: "max: 1", with: "max: 0.5").utf8).write(to: file)
        let over = try ProfctlProcess.run(["check", "--budget", "budgets.yaml"], in: folder.url)
        #expect(over.status == 2 && over.stdout.contains("over-budget"), "\(over.stdout)\(over.stderr)")

        // Without `type:`, every type of Label / eager: at most 0 objects of any fails.
        try Data("budgets:\n  - scenario: lazy-container\n    component: Label\n    strategy: eager\n    metric: objects_per_instance\n    max: 0\n".utf8)
            .write(to: file)
        let every = try ProfctlProcess.run(["check", "--budget", "budgets.yaml", "--format", "json"], in: folder.url)
        #expect(every.status == 2, "\(every.stdout)\(every.stderr)")
        #expect(try verdicts(every.stdout).contains {
            $0["metric"] as? String == "objects_per_instance[ProfilerCatalog.Label]" && $0["status"] as? String == "over-budget"
        }, "\(every.stdout)")

        try Data(documented.replacingOccurrences(of: "ProfilerCatalog.Label, ProfilerCatalog.View>", with: "ProfilerCatalog.Lable, ProfilerCatalog.View>").utf8)
            .write(to: file)
        let typo = try ProfctlProcess.run(["check", "--budget", "budgets.yaml"], in: folder.url)
        #expect(typo.status == 64 && typo.stdout.isEmpty, "\(typo.stdout)")
        #expect(typo.stderr.contains("no type named") && typo.stderr.contains("ProfilerPrimitives.LazyContainer<ProfilerCatalog.Label, ProfilerCatalog.View>"),
                "\(typo.stderr)")

        try Data(documented.replacingOccurrences(of: "metric: objects_per_instance", with: "metric: bytes_per_instance").utf8).write(to: file)
        let misplaced = try ProfctlProcess.run(["check", "--budget", "budgets.yaml"], in: folder.url)
        #expect(misplaced.status == 64 && misplaced.stderr.contains("`type:`"), "\(misplaced.stderr)")
    }

    @Test("a type budget for a scenario never recorded with --types: exit 64 saying how to record one")
    func budgetWithoutTypeRuns() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "10"], in: folder)
        try Data(try Self.documentedBudgets().utf8).write(to: folder.url.appendingPathComponent("budgets.yaml"))
        let result = try ProfctlProcess.run(["check", "--budget", "budgets.yaml"], in: folder.url)
        #expect(result.status == 64 && result.stderr.contains("profctl record --types"), "\(result.stdout)\(result.stderr)")
    }

    @Test("check --store gates objects per type as the file does, on runs pushed with their types",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func onTheStore() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try openedNoneThenAll(folder)
        let push = try PostgresPushTests.push("profile.sqlite", to: server.url, ["--quiet"], in: folder)
        #expect(push.status == 0, "\(push.stderr)")
        let check = ["check", "--baseline", "previous", "--allow-param-mismatch", "--format", "json"]
        let file = try ProfctlProcess.run(check, in: folder.url)
        let store = try ProfctlProcess.run(check + ["--store", server.url], in: folder.url)
        #expect(store.status == 2, "\(store.stdout)\(store.stderr)")
        func typed(_ json: String) throws -> [String] {
            try verdicts(json).filter { ($0["metric"] as? String)?.hasPrefix("objects_per_instance[") == true }
                .map { "\($0["component"] ?? "") \($0["metric"] ?? "") \($0["status"] ?? "") \($0["note"] ?? "")" }.sorted()
        }
        #expect(try typed(store.stdout) == typed(file.stdout))
        #expect(store.stdout.contains("+1 ProfilerCatalog.Label per instance"), "\(store.stdout)")
    }

    func verdicts(_ json: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: Any]])
        return checks.flatMap { ($0["verdicts"] as? [[String: Any]]) ?? [] }
    }
}
