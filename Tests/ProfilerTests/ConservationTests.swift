import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// What every scenario builds, it gives back: per component, strategy and repeat, the
/// bytes its create, realize, hit and miss events took equal the bytes its release and
/// evict events gave back, apart from what the scenario declares it keeps on purpose
/// (`Scenario.keptOnPurpose`). Over every built-in scenario and every file in scenarios/.
@Suite("Conservation: what is built is given back")
struct ConservationTests {
    static let scenarioFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    /// Built-in scenario names, then the path of every scenario file shipped in scenarios/.
    static let subjects: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarioFolder.path)) ?? []
        return BuiltInScenarios.all.map(\.name)
            + files.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                .map { scenarioFolder.appendingPathComponent($0).path }
    }()

    @Test("scenarios/ holds files to check") func filesFound() {
        #expect(Self.subjects.count > BuiltInScenarios.all.count)
    }

    /// Per component, strategy and repeat: what was taken, what was given back, and what
    /// was left behind by the first instance built, the first released, and all the others.
    struct Balance: CustomStringConvertible {
        let component: String, strategy: String, repeatIndex: Int64
        var taken: Int64 = 0, givenBack: Int64 = 0, leftByFirsts: Int64 = 0, leftByOthers: Int64 = 0
        var negative = false
        var leftBehind: Int64 { leftByFirsts + leftByOthers }
        var description: String {
            "\(component) \(strategy) repeat \(repeatIndex): took \(taken) B, gave back \(givenBack) B, left \(leftBehind) B behind"
                + " (\(leftByFirsts) B by the first instance built and the first released, \(leftByOthers) B by the others)"
        }
    }

    /// Per instance: bytes taken (create, realize, hit, miss), given back (release,
    /// evict), left behind, and the sequence numbers of its first taking and giving back.
    static let perInstanceSQL = """
        SELECT component, strategy, repeat, instance,
               SUM(CASE WHEN kind IN ('release', 'evict') THEN 0 ELSE requested_bytes END),
               -SUM(CASE WHEN kind IN ('release', 'evict') THEN requested_bytes ELSE 0 END),
               SUM(requested_bytes),
               MIN(CASE WHEN kind IN ('release', 'evict') THEN NULL ELSE seq END),
               MIN(CASE WHEN kind IN ('release', 'evict') THEN seq END)
        FROM event_log WHERE run_id = ? AND kind <> 'idle'
        GROUP BY component, strategy, repeat, instance
        """

    static func balances(run runID: String, in db: SQLiteConnection) throws -> [Balance] {
        let rows = try db.rows(perInstanceSQL, [.text(runID)])
        let groups = Dictionary(grouping: rows) { "\($0[0].string ?? "")\u{0}\($0[1].string ?? "")\u{0}\($0[2].int64 ?? -1)" }
        return groups.values.map { rows in
            let first = rows[0]
            func firstInstance(_ column: Int) -> Int64? {
                rows.filter { $0[column].int64 != nil }.min { ($0[column].int64 ?? 0) < ($1[column].int64 ?? 0) }?[3].int64
            }
            let firsts = Set([firstInstance(7), firstInstance(8)].compactMap { $0 })
            var balance = Balance(component: first[0].string ?? "", strategy: first[1].string ?? "", repeatIndex: first[2].int64 ?? -1)
            for row in rows {
                let left = row[6].int64 ?? 0
                balance.taken += row[4].int64 ?? 0
                balance.givenBack += row[5].int64 ?? 0
                if firsts.contains(row[3].int64 ?? -1) { balance.leftByFirsts += left } else { balance.leftByOthers += left }
                if left < 0 { balance.negative = true }
            }
            return balance
        }.sorted { ($0.component, $0.strategy, $0.repeatIndex) < ($1.component, $1.strategy, $1.repeatIndex) }
    }

    /// Why a balance breaks the rule, or nil when it keeps it.
    static func violation(_ b: Balance, declared: [KeptBytes]) -> String? {
        let declaration = declared.first { $0.covers(component: b.component, strategy: b.strategy) }
        switch declaration?.kind {
        case nil:
            return b.leftBehind == 0 ? nil : "\(b): nothing is declared kept"
        case .everything:
            return b.givenBack == 0 && b.taken > 0 ? nil : "\(b): declared to keep everything it took"
        case .oneTimePerProcess:
            return b.leftByOthers == 0 && !b.negative ? nil
                : "\(b): declared to leave only a one-time cost, on the first instance built or released"
        }
    }

    /// Counts above this are lowered so the suite stays fast in a debug build (what each
    /// instance takes and gives back does not depend on how many there are); strategies,
    /// repeats and every other parameter are the file's.
    static let largestCount = 200

    @Test("every (component, strategy) gives back what it took, apart from what its scenario declares it keeps",
          arguments: subjects)
    func conserves(_ subject: String) throws {
        var (scenario, options): (any Scenario, RecordOptions)
        if subject.contains("/") {
            let file = try ScenarioFile.load(path: subject)
            (scenario, options) = (file.scenario, file.options)
        } else {
            (scenario, options) = (try BuiltInScenarios.named(subject), RecordOptions())
        }
        let count = try scenario.resolve(options).int(scenario.countParameter)
        options.parameters[scenario.countParameter] = .int(min(count, Self.largestCount))
        let temp = try TemporaryDatabase()
        let summary = try recordOnOwnThread(scenario, database: temp.path, options: options)
        let db = try ProfileStore.openForReading(path: temp.path)
        let balances = try Self.balances(run: summary.runID, in: db)
        #expect(!balances.isEmpty)
        // An instance number names one element: built at most once. Otherwise two elements
        // share a balance, and a leak could hide in a one-time cost of "the first instance".
        let reused = try db.rows("""
            SELECT component, strategy, repeat, instance, count(*) FROM event_log
            WHERE run_id = ? AND kind = 'create' GROUP BY component, strategy, repeat, instance HAVING count(*) > 1 LIMIT 5
            """, [.text(summary.runID)])
        for row in reused {
            Issue.record("\(subject): \(row[0].string ?? "") \(row[1].string ?? "") repeat \(row[2].int64 ?? -1): instance \(row[3].int64 ?? -1) created \(row[4].int64 ?? 0) times")
        }
        for balance in balances {
            // swift-leaks' leaking strategies leak by design (the leak verdicts must catch them).
            if scenario is SwiftLeaksScenario && SwiftLeaksScenario.leakingStrategies.contains(balance.strategy) {
                #expect(balance.leftByOthers > 0, "\(subject): \(balance) should leak")
                continue
            }
            if let problem = Self.violation(balance, declared: scenario.keptOnPurpose) {
                Issue.record("\(subject): \(problem)")
            }
        }
    }

    @Test("a declaration names a strategy and component the scenario has")
    func declarationsNameRealThings() throws {
        for scenario in BuiltInScenarios.all {
            for kept in scenario.keptOnPurpose {
                #expect(scenario.strategies.contains(kept.strategy), "\(scenario.name): \(kept.strategy)")
                #expect(!kept.reason.isEmpty)
            }
        }
    }
}
