import ArgumentParser
import Profiler

/// The options `sites` and `types` share: one run (`--run`, or the newest of
/// `--scenario`), or two to compare (`--diff A B`, with the mismatch allowances that only
/// apply there), and an event kind to keep. Checked in one place for both commands.
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
}
