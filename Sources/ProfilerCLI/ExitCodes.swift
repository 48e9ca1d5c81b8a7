import ArgumentParser
import Foundation
import Profiler

/// Every exit status profctl uses, in one place (documented in docs/cli.md).
package enum ExitCodes {
    package static let success: Int32 = 0
    /// Anything that went wrong that is not one of the below: I/O, a failed run, a missing run.
    package static let failure: Int32 = 1
    /// `check`: a metric regressed or broke its budget.
    package static let regression: Int32 = 2
    /// The file is not a SQLite database, or SQLite finds it damaged.
    package static let notADatabase: Int32 = 3
    /// `check --fail-on-improvement`: improvements and no regression.
    package static let improvement: Int32 = 4
    /// `check`: the baseline named does not exist.
    package static let baselineNotFound: Int32 = 5
    /// `check`: the baseline was recorded with another Swift, build configuration, OS or architecture,
    /// or with other workload parameters (rows 100 against 500).
    package static let environmentMismatch: Int32 = 6
    /// The database file is shorter than its header says.
    package static let truncatedDatabase: Int32 = 7
    /// The database's schema is newer than this profctl.
    package static let schemaNewer: Int32 = 8
    /// The database's schema needs `profctl migrate`, or an applied migration was edited.
    package static let schemaMismatch: Int32 = 9
    /// The database file is empty: nothing recorded yet.
    package static let emptyDatabase: Int32 = 10
    /// `check`: no metric got worse, but metrics the baseline or a budget expects are not
    /// in the run (a strategy or component left out); `--allow-missing` accepts that.
    package static let missingMetrics: Int32 = 12
    /// `check`, `baseline set`: the run named (or its baseline) is aborted or still running,
    /// so its figures are not a result.
    package static let runNotComplete: Int32 = 13
    /// The file is a SQLite database of another application (its tables or its
    /// application id are not profctl's); it is left untouched.
    package static let foreignDatabase: Int32 = 14
    /// `check --leaks`: a component and strategy left bytes behind that its scenario does not
    /// declare, or grew in every round (beyond its budget, when one is set); docs/leaks.md.
    package static let leaks: Int32 = 15
    /// The PostgreSQL store cannot be reached (server down, wrong host or port, connection lost).
    package static let storeUnreachable: Int32 = 20
    /// The PostgreSQL store refused the user or password.
    package static let storeAuthenticationFailed: Int32 = 21
    /// The PostgreSQL database holds another application's tables; it was left untouched.
    package static let notAProfctlStore: Int32 = 22
    /// The PostgreSQL store refused a write (disk full, permissions, ...); the run was rolled back.
    package static let storeRefused: Int32 = 23
    /// The PostgreSQL store and the connection disagree on TLS (a TLS-only server, sslmode=disable).
    package static let storeTLSMismatch: Int32 = 24
    /// profctl (built without the PostgreSQL client) needed profctl-pg, and it is not beside it.
    package static let postgresClientMissing: Int32 = 25
    /// `record` was interrupted (Ctrl-C, SIGINT): the run is kept, marked aborted
    /// ("interrupted"), and named on stderr (128 + SIGINT, as a shell reports it).
    package static let interrupted: Int32 = 130
    /// The command line itself is wrong (ArgumentParser's validation errors use it too).
    package static let usage: Int32 = 64

    package static func code(for error: any Error) -> Int32 {
        switch error {
        case let store as StoreError:
            switch store {
            case .notADatabase, .notAFile, .damagedDatabase: notADatabase
            case .foreignDatabase: foreignDatabase
            case .multipleStatements: usage
            case .truncatedDatabase: truncatedDatabase
            case .schemaNewer: schemaNewer
            case .needsMigration, .checksumMismatch: schemaMismatch
            case .emptyDatabase: emptyDatabase
            case .readOnlyViolation: usage
            case .missingDatabase, .runNotFound, .noRuns, .queryTimedOut: failure
            }
        case is ScenarioError, is ScenarioFileError, is UnknownNameError, is LeakBudgetError, is InvalidStatement,
             is NoCacheLookupsError: usage
        case let check as CheckError:
            switch check {
            case .baselineNotFound: baselineNotFound
            case .environmentMismatch, .parameterMismatch: environmentMismatch
            case .invalidBaseline: usage
            case .runNotComplete: runNotComplete
            }
        default: failure
        }
    }
}

/// Runs a command body, turning library errors into a message on stderr (with profctl's
/// flag advice, ``FlagAdvice``) and the exit code that goes with them.
package func reportingErrors(databasesNamedBy naming: FlagAdvice.DatabaseNaming = .dbOption, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        Console.error(FlagAdvice.message(for: error, databasesNamedBy: naming))
        throw ExitCode(ExitCodes.code(for: error))
    }
}

/// stdout carries data; stderr carries messages.
package enum Console {
    package static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    package static func message(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    package static func error(_ text: String) {
        message("profctl: error: \(text)")
    }
}
