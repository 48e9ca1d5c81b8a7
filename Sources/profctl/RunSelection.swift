import ArgumentParser
import Profiler

/// --run and --scenario, shared by the commands that work on runs (report, check, export):
/// by default the newest complete run of every scenario.
struct RunSelection: ParsableArguments {
    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest` (the newest complete run). Default: the newest run of every scenario.")
    var runReference: String?

    @Option(help: "Only this scenario's newest run (with --run latest, the same).")
    var scenario: String?

    func runs(in db: SQLiteConnection) throws -> [RunInfo] {
        try RunReport.runs(reference: runReference, scenario: scenario, in: db)
    }
}
