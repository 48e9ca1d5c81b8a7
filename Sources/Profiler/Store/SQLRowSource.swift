import ProfilerModel

/// A connection that runs one SQL statement with bound values and returns its rows as
/// `SQLValue`s: the seam between the query layer and a store, so the same readers work
/// on a local SQLite file and on the team's PostgreSQL store (ProfilerPostgres).
///
/// SQL given to it is written portably: `?` or `?N` placeholders, the views and columns
/// of docs/schema.md, and functions both stores have (the PostgreSQL schema defines
/// `json_extract` and a double-precision `round` with SQLite's meaning).
package protocol SQLRowSource: AnyObject {
    /// The columns and rows of one statement.
    func table(_ sql: String, _ values: [SQLValue]) throws -> ResultTable
    /// What to call the store in messages: a file path, or a URL without its password.
    var storeName: String { get }
    /// Whether a table or view of that name exists: readers of what older schema versions
    /// (or the PostgreSQL store) lack ask this first, instead of swallowing every error.
    func hasRelation(_ name: String) throws -> Bool
}

extension SQLRowSource {
    /// The rows of one statement.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try table(sql, values).rows
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try table(sql, values).rows.first?.first
    }
}

extension SQLiteConnection: SQLRowSource {
    package func table(_ sql: String, _ values: [SQLValue]) throws -> ResultTable {
        let statement = try prepare(sql)
        let rows = try statement.rows(values)
        return ResultTable(columns: statement.columnNames, rows: rows)
    }

    package var storeName: String { path }

    package func hasRelation(_ name: String) throws -> Bool {
        try scalar("SELECT 1 FROM sqlite_schema WHERE name = ? AND type IN ('table', 'view')", [.text(name)]) != nil
    }
}

/// A store whose rows can also be changed: `writing` runs its body in one transaction,
/// committed when it returns and rolled back when it throws, so a refused write leaves
/// nothing half-done (labels on the local file, or on the team's PostgreSQL store).
package protocol SQLWritableStore: SQLRowSource {
    func writing<T>(_ body: () throws -> T) throws -> T
}

extension SQLiteConnection: SQLWritableStore {
    package func writing<T>(_ body: () throws -> T) throws -> T { try transaction(body) }
}
