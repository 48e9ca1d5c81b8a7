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

    func runs(in db: any SQLRowSource) throws -> [RunInfo] {
        if let scenario { try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db) }
        return try RunReport.runs(reference: runReference, scenario: scenario, in: db)
    }
}

/// Says on stderr, for each run named that is aborted or still running, that its figures
/// are partial: reading commands show such runs when asked, but never as a result.
func noteIncomplete(_ runs: [RunInfo]) {
    for note in runs.compactMap(\.incompleteNote) { Console.message("profctl: note: " + note) }
}
