import Profiler

/// The command-line half of an error message. The library says what is wrong in its own
/// terms (the value, the file, the run, the choices); profctl adds which command or flag
/// fixes it, since only profctl knows its flags. Used by ``reportingErrors(_:)``.
public enum FlagAdvice {
    /// How the command names its databases, which decides what the advice points at.
    public enum DatabaseNaming: Sendable {
        /// `--db PATH` (most commands).
        case dbOption
        /// Arguments (`merge OUT IN...`), which have no --db.
        case arguments
    }

    /// The error's description followed by profctl's advice, when it has any.
    public static func message(for error: any Error, databasesNamedBy naming: DatabaseNaming = .dbOption) -> String {
        let text = String(describing: error)
        guard let advice = advice(for: error, databasesNamedBy: naming) else { return text }
        return text + (text.hasSuffix(".") ? " " : ". ") + advice
    }

    /// What to type to fix `error`, or nil when the library's message says all there is.
    package static func advice(for error: any Error, databasesNamedBy naming: DatabaseNaming = .dbOption) -> String? {
        switch error {
        case let store as StoreError: advice(for: store, databasesNamedBy: naming)
        case let check as CheckError: advice(for: check)
        case let sites as SiteError: advice(for: sites)
        case let types as TypeCaptureError: advice(for: types)
        case let name as UnknownNameError where name.kind == "type":
            "List a run's types with: profctl types --scenario SCENARIO; record them with: profctl record --types SCENARIO"
        case let name as UnknownNameError where name.kind == "exact metric" && LatencyName.isLatency(name.name):
            "Set the latency test with --alpha, --min-effect and --min-effect-ns"
        default: nil
        }
    }

    /// The check output's advice, naming profctl's flags.
    package static let check = CheckAdvice(moreRepeats: "record with --repeat 5 or more", allowMissing: "pass --allow-missing")

    static func advice(for error: StoreError, databasesNamedBy naming: DatabaseNaming) -> String? {
        switch error {
        case .missingDatabase(let path), .emptyDatabase(let path), .noRuns(let path):
            "Record one with, for example: profctl record lazy-container --db \(path)"
        case .notAFile, .foreignDatabase, .notADatabase:
            naming == .dbOption ? "Point --db at one (record creates a new file)"
                : "Name profctl databases only (the output is created when missing)"
        case .needsMigration(let path, _, _): "Run: profctl migrate --db \(path)"
        case .runNotFound(let path, _): "List runs with: profctl runs --db \(path)"
        case .queryTimedOut: "Raise --timeout for more time"
        case .multipleStatements, .damagedDatabase, .truncatedDatabase, .schemaNewer, .checksumMismatch, .readOnlyViolation: nil
        }
    }

    static func advice(for error: CheckError) -> String? {
        switch error {
        case .environmentMismatch(let differences) where differences.contains(where: { $0.hasPrefix(Checker.typesDifferencePrefix) }):
            "Record both runs with --types (or neither), or pass --allow-env-mismatch to compare everything else"
        case .environmentMismatch: "Record in the baseline's environment, or pass --allow-env-mismatch to compare anyway"
        case .parameterMismatch: "Record with the baseline's parameters, or pass --allow-param-mismatch to compare anyway"
        case .invalidBaseline: "Labels: profctl baseline list"
        case .baselineNotFound: "Labels: profctl baseline list; set one with: profctl baseline set LABEL --run ID"
        case .runNotComplete: nil
        }
    }

    static func advice(for error: SiteError) -> String? {
        switch error {
        case .noSites: "Record it again with: profctl record --sites SCENARIO"
        case .noSiteRuns(_, let scenario): "Record one with: profctl record --sites \(scenario ?? "SCENARIO")"
        case .noSuchRun: "List runs with: profctl runs"
        case .badDepth: nil
        }
    }

    static func advice(for error: TypeCaptureError) -> String? {
        switch error {
        case .noTypes: "Record it again with: profctl record --types SCENARIO"
        case .noTypeRuns(_, let scenario): "Record one with: profctl record --types \(scenario ?? "SCENARIO")"
        case .noSuchRun: "List runs with: profctl runs"
        case .unavailable: "Record without --types"
        }
    }
}
