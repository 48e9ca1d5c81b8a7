import Foundation
import Profiler
import Testing

/// What a run stores of its scenario's declaration, read back by plain profctl: a user's
/// own scenario's `keptOnPurpose` reaches `check --leaks` without the scenario's code.
@Suite("scenario declarations stored with runs, through profctl")
struct DeclarationProcessTests {
    /// A user's own scenario, declared here as a user's program would: `cached` keeps every
    /// item in a cache that outlives its release step, and says so.
    struct KeepsOnPurpose: Scenario {
        enum Strategy: String, ScenarioStrategy { case fresh, cached }
        let name = "keeps-on-purpose"
        let summary = "a test's own scenario that keeps its cached items on purpose"
        let baselineStrategy = Strategy.fresh.rawValue
        let strategies = Strategy.names
        let countParameter = "items"
        let parameters = [ParameterSpec("items", "items per strategy", .integer(1...100), default: .int(4))]
        let keptOnPurpose = [KeptBytes(strategy: "cached", .everything, because: "the cache holds every item for its whole life")]

        final class Item {
            var payload = [Int](repeating: 7, count: 16)
        }

        func run(_ context: ScenarioContext) throws {
            var cache: [Item] = []
            for strategy in try context.strategies(Strategy.self) {
                let probe = context.probe(component: "item", strategy: strategy.rawValue)
                var shown: [Item?] = []
                for i in 0..<context.options.int("items") {
                    shown.append(try probe.instance(i).measure(.create) {
                        let item = Item()
                        if strategy == .cached { cache.append(item) }
                        return item
                    })
                }
                for i in shown.indices { try probe.instance(i).measure(.release) { shown[i] = nil } }
            }
            withExtendedLifetime(cache) {}
        }
    }

    @Test("check --leaks counts what a user's own scenario declares it keeps as intended: exit 0, intended_bytes > 0, no github warning")
    func usersKeptOnPurpose() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("profile.sqlite").path
        _ = try ScenarioRunner.record(KeepsOnPurpose(), database: db, options: RecordOptions(repeats: 3))
        for format in ["table", "markdown", "junit", "json"] {
            let check = try ProfctlProcess.run(["check", "--leaks", "--format", format], in: folder.url)
            #expect(check.status == 0, "\(format): \(check.stdout)\(check.stderr)")
        }
        let json = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let verdicts = try #require((object["leaks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
        let cached = try #require(verdicts.first { $0["strategy"] as? String == "cached" })
        // 4 items of 16 Ints each, kept: every byte they took is intended, none retained by mistake.
        #expect((cached["intended_bytes"] as? Int ?? 0) > 4 * 16 * 8, "\(cached)")
        #expect(cached["retained_bytes"] as? Int == 0 && cached["status"] as? String == "pass", "\(cached)")
        let github = try ProfctlProcess.run(["check", "--leaks", "--format", "github"], in: folder.url)
        #expect(github.status == 0 && !github.stdout.contains("::warning") && !github.stdout.contains("::error"), "\(github.stdout)")
        // What was stored is the whole declaration, readable without the code.
        let stored = try ProfctlProcess.run(["query", "SELECT json_extract(declaration, '$.keptOnPurpose[0].kind') FROM run_declarations"],
                                            in: folder.url)
        #expect(stored.stdout.contains("everything"), "\(stored.stdout)\(stored.stderr)")
    }

    @Test("a budgets-only check lists a scenario its budgets do not name as not checked (no-budget), never as a pass of 0 metrics")
    func budgetsOnlyWithoutBudget() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(["record", "lazy-container", "identity", "--instances", "10", "--quiet", "--db", "profile.sqlite"],
                                            in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        try "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: 100000\n"
            .write(to: budgets, atomically: true, encoding: .utf8)
        let table = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(table.status == 0, "\(table.stdout)\(table.stderr)")
        #expect(!table.stdout.contains("0 metrics"), "\(table.stdout)")
        #expect(table.stdout.contains("not checked") && table.stdout.contains("identity") && table.stdout.contains("no-budget"), "\(table.stdout)")
        #expect(table.stderr.contains("no budget for identity"), "\(table.stderr)")
        let json = try ProfctlProcess.run(["check", "--budget", budgets.path, "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let checked = try #require(object["checks"] as? [[String: Any]])
        #expect(checked.count == 1, "\(json.stdout)")
        let unchecked = try #require(object["unchecked"] as? [[String: Any]])
        #expect(unchecked.first?["scenario"] as? String == "identity" && unchecked.first?["status"] as? String == "no-budget", "\(json.stdout)")
    }
}
