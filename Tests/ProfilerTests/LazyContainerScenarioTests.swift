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

@Suite("lazy-container recorded end to end")
struct LazyContainerScenarioTests {
    private func record(_ path: String, instances: Int = 200, repeats: Int = 1) throws -> RunSummary {
        try recordOnOwnThread(LazyContainerScenario(), database: path,
                              options: RecordOptions(instances: instances, repeats: repeats))
    }

    @Test("9 rows; lazy is the container, lazy-realized is eager plus lazy, eager is 8 times lazy or more")
    func shapeOfTheTable() throws {
        let temp = try TemporaryDatabase()
        let summary = try record(temp.path)
        let db = try ProfileStore.openForReading(path: temp.path)
        let report = try SavingsReport.load(run: "latest", measure: .requested, from: db)
        #expect(report.run.runID == summary.runID)
        #expect(report.run.status == "complete")
        #expect(report.rows.count == 9)
        for component in ["Label", "Button", "ImageView"] {
            let rows = Dictionary(uniqueKeysWithValues: report.rows.filter { $0.component == component }.map { ($0.strategy, $0) })
            let eager = try #require(rows["eager"]).bytesPerInstance
            let lazy = try #require(rows["lazy"]).bytesPerInstance
            let realized = try #require(rows["lazy-realized"]).bytesPerInstance
            #expect(lazy == 48, "the container's own size")
            #expect(realized == eager + lazy)
            #expect(eager >= 8 * lazy)
            for row in rows.values {
                let expected = (100 * (eager - row.bytesPerInstance) / eager * 100).rounded() / 100
                #expect(row.savingsPct == expected)
                #expect(row.savedBytes == eager - row.bytesPerInstance)
                #expect(row.instances == 200)
            }
        }
    }

    @Test("every instance costs the same and every release gives back what was taken")
    func exactPerInstance() throws {
        let temp = try TemporaryDatabase()
        _ = try record(temp.path, instances: 50, repeats: 2)
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("""
            SELECT min_instance_requested, max_instance_requested, requested_bytes,
                   released_requested_bytes, instances, repeats FROM rollups
            """)
        #expect(rows.count == 9)
        for row in rows {
            #expect(row[0] == row[1])
            #expect(row[2] == row[3])
            #expect(row[4] == 50 && row[5] == 2)
        }
        // Events per instance: create + release (eager, lazy); create, realize, two releases (lazy-realized).
        let events = try db.scalar("SELECT count(*) FROM events")?.int64
        let perInstance: Int64 = 2 + 2 + 4
        let expected: Int64 = 2 * 3 * 50 * perInstance
        #expect(events == expected)
    }

    @Test("recording twice gives identical bytes")
    func deterministic() throws {
        let temp = try TemporaryDatabase()
        let first = try record(temp.path, instances: 100)
        let second = try record(temp.path, instances: 100)
        let db = try ProfileStore.openForReading(path: temp.path)
        let a = try SavingsReport.load(run: first.runID, measure: .requested, from: db).rows
        let b = try SavingsReport.load(run: second.runID, measure: .requested, from: db).rows
        #expect(a == b)
        #expect(try RunQueries.list(db).count == 2)
    }

    @Test("the savings view shows the same rows as the report")
    func viewMatchesReport() throws {
        let temp = try TemporaryDatabase()
        let summary = try record(temp.path, instances: 20)
        let db = try ProfileStore.openForReading(path: temp.path)
        let view = try ReadOnlyQuery.run("SELECT * FROM savings", on: db).table
        #expect(view.columns == ["run_id", "scenario", "component", "strategy", "instances", "bytes_per_instance",
                                 "baseline_strategy", "saved_bytes", "savings_pct", "retains_per_instance", "releases_per_instance"])
        let report = try SavingsReport.load(run: summary.runID, measure: .requested, from: db)
        #expect(view.rows.map { $0[2].string ?? "" } == report.rows.map(\.component))
        #expect(view.rows.map { $0[5].double ?? -1 } == report.rows.map(\.bytesPerInstance))
    }

    @Test("the run records where and how it was made")
    func runMetadata() throws {
        let temp = try TemporaryDatabase()
        var environment = RunEnvironment.current(environment: ["GIT_COMMIT": "abc123"])
        environment.host = "test-host"
        let summary = try recordOnOwnThread(LazyContainerScenario(), database: temp.path,
                                            options: RecordOptions(instances: 5), environment: environment)
        let db = try ProfileStore.openForReading(path: temp.path)
        let run = try RunQueries.resolve(String(summary.runID.prefix(8)), in: db)
        #expect(run.gitCommit == "abc123")
        #expect(run.host == "test-host")
        #expect(run.buildConfiguration == RunEnvironment.buildConfiguration)
        #expect(run.parameters.contains("\"instances\":5"))
        #expect(run.endedAt != nil)
        #expect(UUID(uuidString: run.runID) != nil)
    }

    @Test("GITHUB_SHA is used when GIT_COMMIT is absent")
    func commitFromGitHub() {
        let environment = RunEnvironment.current(environment: ["GITHUB_SHA": "feedbeef"])
        #expect(environment.gitCommit == "feedbeef")
    }

    @Test("a scenario that fails midway leaves its run aborted, with the reason")
    func abortedRun() throws {
        struct Failing: Scenario {
            let name = "failing"
            let summary = "fails after one event"
            let baselineStrategy = "eager"
            let strategies = ["eager"]
            let parameters: [ParameterSpec] = []
            let countParameter = "instances"
            func run(_ context: ScenarioContext) throws {
                _ = try context.probe(component: "Label", strategy: "eager").measure(.create) { Label(text: "x") }
                throw ScenarioError.invalidOption("deliberate failure")
            }
        }
        let temp = try TemporaryDatabase()
        #expect(throws: ScenarioError.self) {
            try ScenarioRunner.record(Failing(), database: temp.path, options: RecordOptions())
        }
        let db = try ProfileStore.openForReading(path: temp.path)
        let run = try #require(try RunQueries.list(db).first)
        #expect(run.status == "aborted")
        #expect(run.error == "deliberate failure")
        #expect(try db.scalar("SELECT count(*) FROM rollups")?.int64 == 0)
        #expect(throws: StoreError.noRuns(path: temp.path)) { _ = try RunQueries.resolve("latest", in: db) }
    }
}
