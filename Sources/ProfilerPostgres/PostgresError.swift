import Profiler

/// Why the PostgreSQL store cannot be used or written, each with the fix in its message.
/// `store` is the connection target with any password removed.
package enum PostgresError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No server answered (down, wrong host or port, or the connection broke mid-way).
    case unreachable(store: String, message: String)
    /// The server answered and refused the user or password.
    case authenticationFailed(store: String, message: String)
    /// The server and the connection string disagree on TLS (a TLS-only server reached
    /// with sslmode=disable, or sslmode=require against a server without TLS).
    case tlsMismatch(store: String, message: String)
    /// The database holds tables of another application: profctl leaves it alone.
    case notAProfctlStore(store: String, tables: [String])
    /// The store's schema is newer than this profctl.
    case schemaNewer(store: String, found: Int, known: Int)
    /// The store's schema is older than this profctl's: reading commands never migrate it.
    case schemaOlder(store: String, found: Int, latest: Int)
    /// An applied migration differs from the one compiled into this profctl.
    case checksumMismatch(store: String, version: Int, name: String)
    /// The server refused a statement (disk full, permissions, a constraint, ...).
    case server(store: String, sqlState: String, message: String)
    /// No store was named: neither --to/--store, PROFCTL_STORE nor a PG* variable.
    case noStoreNamed
    /// The connection string itself is malformed (libpq cannot parse it): nothing was tried.
    case invalidTarget(store: String, message: String)

    package var description: String { [problem, consequence, remedy].compactMap { $0 }.joined(separator: " ") }

    /// The message when `runsKept` runs were pushed, each in its own committed transaction,
    /// before this failure: they are in the store, so "Nothing was written" would be false.
    package func description(runsKept: Int) -> String {
        guard runsKept > 0 else { return description }
        let runs = runsKept == 1 ? "1 run" : "\(runsKept) runs"
        let current = if case .server = self { " The run being copied was rolled back: nothing of it is visible." } else { "" }
        return problem + current + " \(runs) pushed before this \(runsKept == 1 ? "is" : "are") in the store, each whole; "
            + "push again to copy the rest (runs already in the store are skipped)." + (remedy.map { " " + $0 } ?? "")
    }

    /// What went wrong and how to fix it.
    var problem: String {
        switch self {
        case .unreachable(let store, let message):
            "cannot reach the PostgreSQL store \(store): \(message). Is the server running and the host and port right?"
        case .authenticationFailed(let store, let message):
            "the PostgreSQL store \(store) refused the login: \(message). Check the user and password (in the URL, PGPASSWORD or ~/.pgpass)."
        case .tlsMismatch(let store, let message):
            "the PostgreSQL store \(store) and this connection disagree on TLS: \(message). A server that accepts only TLS needs sslmode=require in the URL (or verify-full, with its CA in sslrootcert), not sslmode=disable; a server without TLS cannot take sslmode=require."
        case .notAProfctlStore(let store, let tables):
            "\(store) holds tables of another application (\(tables.prefix(5).joined(separator: ", "))) and no profctl schema; it was left untouched. Point --store at an empty database or one profctl created."
        case .schemaNewer(let store, let found, let known):
            "\(store) has profctl schema version \(found), newer than this profctl understands (\(known)); use a newer profctl."
        case .schemaOlder(let store, let found, let latest):
            "\(store) has profctl schema version \(found); this profctl reads version \(latest). Migrate it with this profctl's push (profctl push --to URL: it migrates before it copies, keeping every run), then read it again."
        case .checksumMismatch(let store, let version, let name):
            "\(store): PostgreSQL migration \(version) (\(name)) differs from the one applied there; migrations must never be edited once shipped"
        case .server(let store, let sqlState, let message):
            "the PostgreSQL store \(store) refused a statement (SQLSTATE \(sqlState)): \(message)."
        case .invalidTarget(let store, let message):
            "'\(store)' is not a PostgreSQL connection string: \(message). Give a postgres://USER@HOST[:PORT]/DB URL or libpq key=value pairs"
        case .noStoreNamed:
            "no PostgreSQL store named: pass --to postgres://USER@HOST/DB, or set PROFCTL_STORE (or libpq's PGHOST/PGDATABASE variables)"
        }
    }

    /// What to do once the store can take the push, when the problem does not say it.
    var remedy: String? {
        guard case .server(_, let sqlState, _) = self, sqlState.hasPrefix("53") else { return nil }
        return "The server is out of room (class 53: disk full, memory or a limit): free space on the server, then push again; runs already pushed are skipped."
    }

    /// What the failure left in the store, when the message says it.
    var consequence: String? {
        switch self {
        case .unreachable, .authenticationFailed, .tlsMismatch, .schemaNewer: "Nothing was written."
        case .schemaOlder: "Nothing was changed."
        case .server: "Its transaction was rolled back: nothing of it is visible."
        case .notAProfctlStore, .checksumMismatch, .invalidTarget, .noStoreNamed: nil
        }
    }
}
