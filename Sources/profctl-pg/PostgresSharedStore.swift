import Foundation
import ProfctlCommands
import Profiler
import ProfilerCLI
import ProfilerPostgres

/// The SharedStore of profctl-pg: ProfilerPostgres (libpq) behind the commands' seam.
struct PostgresSharedStore: SharedStore {
    func openForReading(_ target: String) throws -> any SQLRowSource {
        try PostgresStore.openForReading(target)
    }

    func openForWriting(_ target: String) throws -> any SQLWritableStore {
        try PostgresStore.openForWriting(target)
    }

    func query(_ sql: String, target: String, limits: QueryLimits) throws -> QueryResult {
        try PostgresReadOnlyQuery.run(sql, on: PostgresStore.openForReading(target), limits: limits)
    }

    func push(from path: String, to target: String?, includeIncomplete: Bool, progress: (String) -> Void) throws -> String {
        let target = try Self.storeTarget(target, environment: ProcessInfo.processInfo.environment)
        let outcome = try Pusher.push(from: path, to: target, includeIncomplete: includeIncomplete, progress: progress)
        let rate = outcome.seconds > 0 ? Int(Double(outcome.eventsCopied) / outcome.seconds) : 0
        return "\(outcome.runsAdded) runs pushed (\(outcome.eventsCopied) events, \(rate) events/s), "
            + "\(outcome.runsAlreadyPresent) already in the store, \(outcome.runsLeftOut) incomplete left local, "
            + "\(outcome.baselinesAdded) baselines added"
            + (outcome.typesAdded > 0 ? ", object types added to \(outcome.typesAdded) runs pushed without them" : "")
            + outcome.viewsRefused.map { "\nprofctl: warning: \($0)" }.joined()
    }

    func failure(for error: any Error) -> (code: Int32, message: String)? {
        if let cutOff = error as? PushCutOff { return (Self.exitCode(for: cutOff.cause), cutOff.description) }
        guard let error = error as? PostgresError else { return nil }
        return (Self.exitCode(for: error), error.description)
    }

    static func exitCode(for error: PostgresError) -> Int32 {
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
    static func storeTarget(_ option: String?, environment: [String: String]) throws -> String {
        if let option, !option.isEmpty { return option }
        if let named = environment["PROFCTL_STORE"], !named.isEmpty { return named }
        if ["PGHOST", "PGDATABASE", "PGSERVICE", "PGHOSTADDR"].contains(where: { !(environment[$0] ?? "").isEmpty }) { return "" }
        throw PostgresError.noStoreNamed
    }
}
