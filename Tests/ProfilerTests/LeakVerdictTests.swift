import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// The two leak rules (docs/leaks.md): on made-up round trips, on swift-leaks' real leaks
/// and their fixed twins, and on every built-in scenario and shipped scenario file.
@Suite("Leak verdicts: round trip and growth")
struct LeakVerdictTests {
    static func trip(_ repeatIndex: Int, left: Int64, firsts: Int64 = 0, strategy: String = "s") -> RoundTrip {
        RoundTrip(repeatIndex: repeatIndex, component: "c", strategy: strategy, instances: 10, takenBytes: 1000,
                  givenBackBytes: 1000 - left, leftBytes: left, leftBlocks: left > 0 ? 1 : 0, firstsLeftBytes: firsts,
                  firstsLeftBlocks: firsts > 0 ? 1 : 0, othersLeftBytes: left - firsts, othersLeftBlocks: left - firsts > 0 ? 1 : 0)
    }

    @Test("one round of noise after the first is not growth; every round is, with its bytes per round")
    func growthRule() throws {
        let noise = LeakRules.verdicts([Self.trip(0, left: 0), Self.trip(1, left: 64), Self.trip(2, left: 0)], repeats: 3, declared: [])
        let noisy = try #require(noise.first?.growth)
        #expect(!noisy.grows && noisy.growingRounds == 1 && noisy.measuredRounds == 2)
        // It is still retention: the round-trip rule fails it.
        #expect(noise.first?.status == .retained)

        let grows = LeakRules.verdicts((0..<4).map { Self.trip($0, left: 100 + Int64($0)) }, repeats: 4, declared: [])
        let growth = try #require(grows.first?.growth)
        #expect(growth.grows && growth.measuredRounds == 3)
        #expect(growth.bytesPerRound == Double(101 + 102 + 103) / 3)

        // A budget that allows the retained bytes but not the growth: growing.
        let budgeted = LeakRules.verdicts((0..<3).map { Self.trip($0, left: 100) }, repeats: 3, declared: []) { metric, _, _ in
            metric == LeakRules.retainedBytesKey ? 1000 : nil
        }
        #expect(budgeted.first?.status == .growing)
        let allowed = LeakRules.verdicts((0..<3).map { Self.trip($0, left: 100) }, repeats: 3, declared: []) { _, _, _ in 1000 }
        #expect(allowed.first?.status == .allowed && allowed.first?.fails == false)

        // Two repeats: growth is not judged at all.
        #expect(LeakRules.verdicts([Self.trip(0, left: 5), Self.trip(1, left: 5)], repeats: 2, declared: []).first?.growth == nil)
    }

    @Test("intended retention is reported apart, never as a leak")
    func declarations() throws {
        let everything = [KeptBytes(strategy: "s", .everything, because: "a strong cache")]
        let kept = try #require(LeakRules.verdicts((0..<3).map { Self.trip($0, left: 500) }, repeats: 3, declared: everything).first)
        #expect(kept.retainedBytes == 0 && kept.intendedBytes == 1500 && kept.status == .pass)
        #expect(kept.note.contains("a strong cache"))

        let once = [KeptBytes(strategy: "s", .oneTimePerProcess, because: "a side table")]
        let firstOnly = try #require(LeakRules.verdicts([Self.trip(0, left: 48, firsts: 48)], repeats: 1, declared: once).first)
        #expect(firstOnly.retainedBytes == 0 && firstOnly.intendedBytes == 48 && !firstOnly.fails)
        // A one-time declaration does not cover what the other instances leave.
        let others = try #require(LeakRules.verdicts([Self.trip(0, left: 148, firsts: 48)], repeats: 1, declared: once).first)
        #expect(others.retainedBytes == 100 && others.intendedBytes == 48 && others.status == .retained)
        // Declarations apply to their strategy only.
        let other = try #require(LeakRules.verdicts([Self.trip(0, left: 48, strategy: "t")], repeats: 1, declared: everything).first)
        #expect(other.retainedBytes == 48 && other.fails)
    }

    static func check(_ scenario: any Scenario, _ options: RecordOptions) throws -> LeakCheckResult {
        let temp = try TemporaryDatabase()
        let summary = try recordOnOwnThread(scenario, database: temp.path, options: options)
        let db = try ProfileStore.openForReading(path: temp.path)
        return try LeakCheck.check(try RunQueries.resolve(summary.runID, in: db), in: db)
    }

    @Test("each real Swift leak is caught by both rules; each fixed twin passes both")
    func realLeaks() throws {
        let screens = 8
        let result = try Self.check(SwiftLeaksScenario(), RecordOptions(repeats: 3, parameters: ["screens": .int(screens)]))
        #expect(result.notes.isEmpty && result.growthNotJudged == nil, "\(result.notes)")
        for twin in SwiftLeaksScenario.twins {
            let leaking = try #require(result.verdicts.first { $0.strategy == twin.leaking })
            #expect(leaking.component == twin.component)
            #expect(leaking.status == .retained, "\(leaking.note)")
            // Every screen of every round outlived it: at least a screen's worth of blocks each.
            #expect(leaking.retainedBlocks >= Int64(3 * screens), "\(leaking.note)")
            let growth = try #require(leaking.growth)
            #expect(growth.grows && growth.bytesPerRound > 0, "\(leaking.note)")
            #expect(Double(leaking.retainedBytes) >= growth.bytesPerRound * 2)

            let fixed = try #require(result.verdicts.first { $0.strategy == twin.fixed })
            #expect(fixed.status == .pass, "\(fixed.note)")
            #expect(fixed.retainedBytes == 0 && fixed.intendedBytes == 0 && fixed.growth?.growingRounds == 0, "\(fixed.note)")
        }
        #expect(result.fails)
    }

    /// Counts are lowered as in the conservation test (what an instance leaves does not
    /// depend on how many there are); every other parameter is the scenario's or the file's.
    static let largestCount = 60

    @Test("every built-in scenario and every shipped scenario file: zero unintended retention, zero growth over 3 rounds",
          arguments: ConservationTests.subjects)
    func everyScenarioClean(_ subject: String) throws {
        var (scenario, options): (any Scenario, RecordOptions)
        if subject.contains("/") {
            let file = try ScenarioFile.load(path: subject)
            (scenario, options) = (file.scenario, file.options)
        } else {
            (scenario, options) = (try BuiltInScenarios.named(subject), RecordOptions())
        }
        let resolved = try scenario.resolve(options)
        let count = resolved.int(scenario.countParameter)
        let lowest = scenario.parameters.first { $0.name == scenario.countParameter }.flatMap { spec -> Int? in
            if case .integer(let range) = spec.kind { return range.lowerBound } else { return nil }
        } ?? 1
        options.parameters[scenario.countParameter] = .int(max(lowest, min(count, Self.largestCount)))
        options.repeats = 3
        let result = try Self.check(scenario, options)
        #expect(!result.verdicts.isEmpty)
        for verdict in result.verdicts {
            if scenario is SwiftLeaksScenario && SwiftLeaksScenario.leakingStrategies.contains(verdict.strategy) { continue }
            #expect(verdict.retainedBytes == 0, "\(subject) \(verdict.component) \(verdict.strategy): \(verdict.note)")
            #expect(verdict.growth?.grows == false, "\(subject) \(verdict.component) \(verdict.strategy): \(verdict.note)")
        }
    }
}
