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

/// Scenario files name scenarios of the registry they are read with: profctl's built-in
/// ones by default, a user's own in a user's executable.
@Suite("Scenario files with a registry")
struct ScenarioRegistryTests {
    @Test("a file naming a user's scenario is read with that user's registry, and refused by the built-in one")
    func usersRegistry() throws {
        let text = "scenario: two-places\nname: two-big\nparameters:\n  count: 7\n"
        let file = try ScenarioFile.parse(text, path: "mine.yaml", registry: [ReportDeclarationTests.TwoPlaces()])
        #expect(file.scenario.name == "two-places")
        #expect(file.options.parameters["count"] == .int(7))
        let error = try #require(throws: ScenarioFileError.self) { try ScenarioFile.parse(text, path: "mine.yaml") }
        #expect(error.description.contains("known scenarios: lazy-container"))
        #expect(error.line == 1 && error.column == 11)
    }

    @Test("the runner takes resolved options and any sink: no database needed to run a scenario")
    func runnerIntoSink() throws {
        let scenario = ReportDeclarationTests.TwoPlaces()
        let resolved = try scenario.resolve(RecordOptions(repeats: 2, parameters: ["count": .int(3)]))
        let sink = CollectingSink()
        try ScenarioRunner.run(scenario, resolved, into: sink)
        // 3 creates and 3 releases per strategy, two strategies, two repeats.
        #expect(sink.events.filter { $0.kind == .create }.count == 12)
        #expect(sink.events.filter { $0.kind == .release }.count == 12)
    }
}
