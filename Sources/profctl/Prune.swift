import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Prune: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl prune --aborted --dry-run",
        "profctl prune --aborted --db profile.sqlite",
    ]

    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete aborted runs (killed, failed, interrupted by Ctrl-C) and give their space back.",
        discussion: """
            Lists the runs it deletes on stdout (run_id, scenario, started_at, events, reason), \
            with everything recorded for them, then compacts the file (VACUUM). Complete runs \
            and a run still being recorded are never touched. --dry-run lists them and \
            changes nothing.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Delete the aborted runs (the one kind of run prune deletes; required, so that nothing is deleted by accident).")
    var aborted = false

    @Flag(help: "List what would be deleted; change nothing.")
    var dryRun = false

    func validate() throws {
        guard aborted else {
            throw ValidationError("say what to delete: --aborted (for example: profctl prune --aborted --dry-run)")
        }
    }

    func execute() throws {
        let runs = try RunPruning.pruneAborted(database: database.path, dryRun: dryRun)
        Console.output(TableRenderer().render(ResultTable(
            columns: ["run_id", "scenario", "started_at", "events", "reason"],
            rows: runs.map { [.text($0.runID), .text($0.scenario), .text($0.startedAt), .integer($0.events), SQLValue($0.reason)] })))
        let events = runs.reduce(0) { $0 + $1.events }
        let what = "\(runs.count) aborted run\(runs.count == 1 ? "" : "s") (\(events) events)"
        Console.message(runs.isEmpty ? "\(database.path) holds no aborted runs; nothing to delete"
            : dryRun ? "would delete \(what) from \(database.path); run without --dry-run to delete them"
            : "deleted \(what) from \(database.path)")
    }
}
