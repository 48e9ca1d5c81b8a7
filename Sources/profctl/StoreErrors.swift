import ArgumentParser
import ProfilerCLI
import ProfilerPostgres

/// Runs a command body that talks to the PostgreSQL store: its errors get their own exit
/// codes (ExitCodes.swift); everything else is mapped as for the SQLite store.
func reportingStoreErrors(_ body: () throws -> Void) throws {
    try reportingErrors {
        do {
            try body()
        } catch let error as PostgresError {
            Console.error(error.description)
            throw ExitCode(exitCode(for: error))
        }
    }
}

func exitCode(for error: PostgresError) -> Int32 {
    switch error {
    case .unreachable: ExitCodes.storeUnreachable
    case .authenticationFailed: ExitCodes.storeAuthenticationFailed
    case .tlsMismatch: ExitCodes.storeTLSMismatch
    case .notAProfctlStore: ExitCodes.notAProfctlStore
    case .schemaNewer: ExitCodes.schemaNewer
    case .checksumMismatch, .schemaOlder: ExitCodes.schemaMismatch
    case .server: ExitCodes.storeRefused
    case .noStoreNamed, .invalidTarget: ExitCodes.usage
    }
}

/// The PostgreSQL store named by an option, else PROFCTL_STORE, else libpq's own
/// environment variables (PGHOST, PGDATABASE, PGSERVICE: "" lets libpq read them).
func storeTarget(_ option: String?, environment: [String: String]) throws -> String {
    if let option, !option.isEmpty { return option }
    if let named = environment["PROFCTL_STORE"], !named.isEmpty { return named }
    if ["PGHOST", "PGDATABASE", "PGSERVICE", "PGHOSTADDR"].contains(where: { !(environment[$0] ?? "").isEmpty }) { return "" }
    throw PostgresError.noStoreNamed
}
