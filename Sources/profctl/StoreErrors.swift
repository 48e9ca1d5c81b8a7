import ArgumentParser
import ProfilerCLI

/// Runs a command body that may use the PostgreSQL store: the store's errors get their
/// own exit codes (ExitCodes.swift, mapped by the SharedStore), a missing profctl-pg its
/// own; everything else is mapped as for the SQLite store.
func reportingStoreErrors(_ body: () throws -> Void) throws {
    try reportingErrors {
        do {
            try body()
        } catch let missing as PostgresClientMissing {
            Console.error(missing.description)
            throw ExitCode(ExitCodes.postgresClientMissing)
        } catch {
            guard let failure = SharedStoreLink.current?.failure(for: error) else { throw error }
            Console.error(failure.message)
            throw ExitCode(failure.code)
        }
    }
}

/// A command that may read or write the PostgreSQL store (`--store URL`): its errors are
/// reported by `reportingStoreErrors`.
protocol StoreCommand: ProfctlCommand {}

extension StoreCommand {
    static func reporting(_ body: () throws -> Void) throws {
        try reportingStoreErrors(body)
    }
}
