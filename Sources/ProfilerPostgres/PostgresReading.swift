import Profiler

extension PostgresConnection: SQLWritableStore {
    package func writing<T>(_ body: () throws -> T) throws -> T { try transaction(body) }

    /// Runs portable SQL (`?` / `?N` placeholders, as for SQLite) on the server.
    package func table(_ sql: String, _ values: [SQLValue]) throws -> ResultTable {
        try query(Self.numberedPlaceholders(sql), values)
    }

    package var storeName: String { displayName }

    /// Looked up on the connection's search path, as the queries' unqualified names are.
    package func hasRelation(_ name: String) throws -> Bool {
        try query("SELECT CASE WHEN to_regclass($1) IS NULL THEN 0 ELSE 1 END", [.text(name)]).rows.first?.first?.int64 == 1
    }

    /// `?` becomes `$1`, `$2`, ... in order and `?N` becomes `$N`; text inside quotes,
    /// identifiers and comments is left alone.
    static func numberedPlaceholders(_ sql: String) -> String {
        var result = ""
        var next = 1
        var quote: Character?
        var characters = Array(sql)[...]
        while let c = characters.popFirst() {
            if let open = quote {
                result.append(c)
                if c == open { quote = nil }
                continue
            }
            switch c {
            case "'", "\"":
                quote = c
                result.append(c)
            case "-" where characters.first == "-":
                result.append(c)
                while let d = characters.popFirst() {
                    result.append(d)
                    if d == "\n" { break }
                }
            case "?":
                var digits = ""
                while let d = characters.first, d.isASCII, d.isNumber { digits.append(d); characters.removeFirst() }
                if digits.isEmpty {
                    result += "$\(next)"
                    next += 1
                } else {
                    result += "$" + digits
                }
            default:
                result.append(c)
            }
        }
        return result
    }
}

/// Opening the PostgreSQL store for reading commands: the schema is checked (never
/// created or migrated) and the session is read-only.
package enum PostgresStore {
    package static func openForReading(_ target: String) throws -> PostgresConnection {
        let db = try PostgresConnection(target)
        try db.execute("SET default_transaction_read_only = on; SET client_min_messages = warning")
        try requireCurrentSchema(db)
        return db
    }

    /// For the few commands that change the store's rows (baseline set and rm): the same
    /// schema checks as for reading, and a session that may write.
    package static func openForWriting(_ target: String) throws -> PostgresConnection {
        let db = try PostgresConnection(target)
        try db.execute("SET client_min_messages = warning")
        try requireCurrentSchema(db)
        return db
    }

    /// A store profctl created, at this profctl's schema version: anything else is refused.
    static func requireCurrentSchema(_ db: PostgresConnection) throws {
        let migrator = PostgresMigrator()
        let applied = try migrator.applied(in: db)
        guard !applied.isEmpty else { throw StoreError.noRuns(path: db.displayName) }
        try migrator.verify(applied: applied, store: db.displayName)
        if migrator.migrations.contains(where: { applied[$0.version] == nil }) {
            // An older schema: the next push migrates it.
            throw PostgresError.schemaOlder(store: db.displayName, found: applied.keys.max() ?? 0, latest: migrator.latestVersion)
        }
    }
}

/// Analysts' SQL on the PostgreSQL store: a read-only transaction, a statement timeout,
/// a row cap (via a cursor, so the server never sends more than the cap), one statement.
package enum PostgresReadOnlyQuery {
    static let readingKeywords: Set<String> = ["select", "with", "values", "table"]

    package static func run(_ sql: String, on db: PostgresConnection, limits: QueryLimits = QueryLimits()) throws -> QueryResult {
        let trimmed = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        var body = trimmed
        while body.hasSuffix(";") { body = String(body.dropLast()).trimmingCharacters(in: .whitespacesAndNewlines) }
        let first = body.prefix { $0.isLetter }.lowercased()
        guard readingKeywords.contains(first), !body.contains(";") else { throw StoreError.readOnlyViolation(sql: sql) }
        return try db.transaction {
            try db.execute("SET TRANSACTION READ ONLY")
            try db.execute("SET LOCAL statement_timeout = \(max(1, Int(limits.seconds * 1000)))")
            do {
                try db.execute("DECLARE profctl_query NO SCROLL CURSOR FOR " + body)
                let fetched = try db.query("FETCH FORWARD \(limits.maxRows + 1) FROM profctl_query")
                let truncated = fetched.rows.count > limits.maxRows
                return QueryResult(table: ResultTable(columns: fetched.columns, rows: Array(fetched.rows.prefix(limits.maxRows))),
                                   truncated: truncated)
            } catch PostgresError.server(_, let state, _) where state == "57014" {
                throw StoreError.queryTimedOut(seconds: limits.seconds)
            } catch PostgresError.server(_, let state, _) where ["25006", "42501", "0A000"].contains(state) {
                throw StoreError.readOnlyViolation(sql: sql)
            } catch PostgresError.server(_, let state, let message) where state.hasPrefix("42") {
                // Class 42 (syntax error, undefined table, column or function): the statement
                // as typed is wrong, as SQLite's compile errors are.
                throw InvalidStatement(message: message, sql: sql)
            }
        }
    }
}
