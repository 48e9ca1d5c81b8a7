import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

/// The options `sites` and `types` share: one run (`--run`, or the newest of
/// `--scenario`), or two to compare (`--diff A B`, with the mismatch allowances that only
/// apply there), and an event kind to keep. Checked and resolved in one place for both
/// commands, which differ only in what they read (``RunCapture``) and draw.
enum RunListingOptions {
    static func validate(runReference: String?, scenario: String?, diff: [String], mismatch: MismatchAllowance,
                         kind: String?) throws {
        if runReference?.isEmpty == true { throw ValidationError("--run is empty; give a run id (profctl runs), or latest") }
        if scenario?.isEmpty == true { throw ValidationError("--scenario is empty; give a scenario name (profctl scenarios)") }
        if diff.isEmpty && (mismatch.allowEnvMismatch || mismatch.allowParameterMismatch) {
            throw ValidationError("--allow-env-mismatch and --allow-param-mismatch apply to --diff A B; leave them out")
        }
        if !diff.isEmpty && diff.count != 2 { throw ValidationError("--diff takes two runs, A and B (got \(diff.count))") }
        if !diff.isEmpty && runReference != nil { throw ValidationError("--diff names its two runs; leave out --run") }
        if let kind, EventKind(rawValue: kind) == nil {
            throw ValidationError("--kind \(kind) is not an event kind; valid choices: "
                                  + EventKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// `--diff A B`: both runs, held to check's rule for a run and its baseline (another
    /// environment or workload would show the workload's change as rows that grew or
    /// shrank), with the filter's names checked against both and differing parameters noted;
    /// then each run's `rows`, and the table of what `compare` says changed, their count said
    /// on stderr.
    static func diffTable<Row, Change>(_ diff: [String], scenario: String?, filter: CaptureFilter, capture: RunCapture,
                                       mismatch: MismatchAllowance, in db: any SQLRowSource,
                                       rows: (_ runID: String) throws -> [Row], compare: ([Row], [Row]) -> [Change],
                                       table: ([Change]) -> ResultTable) throws -> ResultTable {
        let a = try capture.run(diff[0], scenario: scenario, in: db), b = try capture.run(diff[1], scenario: scenario, in: db)
        try Checker.requireComparable(b, with: [a], allowEnvironmentMismatch: mismatch.allowEnvMismatch,
                                      allowParameterMismatch: mismatch.allowParameterMismatch)
        try capture.validate(filter, runIDs: [a.runID, b.runID], optionPrefix: "--", in: db)
        for note in BaselineResolver.parameterDifferences(b, [a]) { Console.message("profctl: note: parameters differ: " + note) }
        let changes = compare(try rows(a.runID), try rows(b.runID))
        Console.message("\(capture.noun) from run \(a.runID) (A) to run \(b.runID) (B): \(changes.count) changed")
        return table(changes)
    }

    /// The one run listed (`--run`, or the newest with the capture), with the filter's names checked against it.
    static func listedRun(_ reference: String?, scenario: String?, filter: CaptureFilter, capture: RunCapture,
                          in db: any SQLRowSource) throws -> RunInfo {
        let run = try capture.run(reference, scenario: scenario, in: db)
        noteIncomplete([run])
        try capture.validate(filter, runIDs: [run.runID], optionPrefix: "--", in: db)
        return run
    }

    /// To -o's file when given (as report and export write it), else to stdout.
    static func emit(_ text: String, to output: String?, capture: RunCapture) throws {
        guard let output else { return Console.output(text) }
        try OutputPath.write(Data(text.utf8), to: output)
        Console.message("wrote the \(capture.noun) to \(output)")
    }
}
