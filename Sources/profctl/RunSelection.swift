import ArgumentParser
import Profiler
import ProfilerCLI

/// --run and --scenario, shared by the commands that work on runs (report, check, export):
/// by default the newest complete run of every scenario.
struct RunSelection: ParsableArguments {
    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest` (the newest complete run). Default: the newest run of every scenario.")
    var runReference: String?

    @Option(help: "Only this scenario's newest run (with --run latest, the same).")
    var scenario: String?

    func validate() throws {
        if runReference?.isEmpty == true { throw ValidationError("--run is empty; give a run id (profctl runs), or latest") }
        if scenario?.isEmpty == true { throw ValidationError("--scenario is empty; give a scenario name (profctl scenarios)") }
    }

    func runs(in db: any SQLRowSource) throws -> [RunInfo] {
        if let scenario { try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db) }
        do {
            return try RunReport.runs(reference: runReference, scenario: scenario, in: db)
        } catch StoreError.noRuns(let path) where scenario != nil {
            // The database may hold other scenarios' runs: say which one has none.
            throw NoCompleteRun(scenario: scenario ?? "", path: path)
        }
    }
}

extension RunSelection {
    /// Without --run, says on stderr which scenarios' newest runs are not complete and so
    /// were passed over: an older complete run is shown instead, or none at all.
    func notePassedOver(shown: [RunInfo], in db: any SQLRowSource) throws {
        guard runReference == nil else { return }
        for run in try RunQueries.newestIncomplete(scenario: scenario, in: db) {
            let instead = shown.first { $0.scenario == run.scenario }
                .map { "showing its newest complete run \($0.runID.prefix(8)) instead" } ?? "it has no complete run to show"
            Console.message("profctl: note: \(run.scenario)'s newest run \(run.runID.prefix(8)) is \(run.status); \(instead)")
        }
    }
}

/// A scenario that exists (built in, or recorded before) but has no complete run in the
/// database: exit 1, with the command that records one.
struct NoCompleteRun: Error, CustomStringConvertible {
    let scenario: String
    let path: String

    var description: String {
        let how = BuiltInScenarios.all.contains { $0.name == scenario }
            ? "profctl record \(scenario) --db \(path)" : "profctl record FILE.yaml --db \(path), with its scenario file"
        return "\(path) holds no complete \(scenario) run yet; record one with: \(how)"
    }
}

/// Says on stderr, for each run named that is aborted or still running, that its figures
/// are partial: reading commands show such runs when asked, but never as a result.
func noteIncomplete(_ runs: [RunInfo]) {
    for note in runs.compactMap(\.incompleteNote) { Console.message("profctl: note: " + note) }
}
