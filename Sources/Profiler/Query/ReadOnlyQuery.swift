import CSQLite
import ProfilerModel
import ProfilerStore

/// Limits on analysts' queries.
package struct QueryLimits: Sendable, Equatable {
    /// A statement still running after this many seconds is stopped.
    package var seconds: Double = 10
    /// At most this many rows are returned; the result says when more were left out.
    package var maxRows = 10_000

    package init(seconds: Double = 10, maxRows: Int = 10_000) {
        self.seconds = seconds
        self.maxRows = maxRows
    }
}

/// What a query returned, and whether rows were left out.
package struct QueryResult: Sendable, Equatable {
    package let table: ResultTable
    package let truncated: Bool

    package init(table: ResultTable, truncated: Bool) {
        self.table = table
        self.truncated = truncated
    }
}

/// A statement SQLite cannot compile (a syntax error, a column or function that does not
/// exist): the statement as typed is wrong, not the database.
package struct InvalidStatement: Error, CustomStringConvertible, Equatable, Sendable {
    /// SQLite's own message ("near \"SELCT\": syntax error", "no such table: savngs").
    package let message: String
    package let sql: String

    package init(message: String, sql: String) {
        self.message = message
        self.sql = sql
    }

    package var description: String {
        "the SQL statement is not valid: \(message); the views and their columns are documented in docs/schema.md"
    }
}

/// Runs analysts' SQL against a database opened read-only. A statement that would
/// write, attach another file, set a pragma or load an extension is refused before it
/// runs; a runaway one is stopped after a time limit; rows are capped.
package enum ReadOnlyQuery {
    package static func run(_ sql: String, on db: SQLiteConnection, limits: QueryLimits = QueryLimits()) throws -> QueryResult {
        db.denyWritesAndEscapes()
        defer { db.limitRunningTime(to: nil) }
        let statement: Statement
        do {
            statement = try db.prepare(sql)
        } catch let error as SQLiteError where error.primaryCode == SQLITE_AUTH || error.message.hasPrefix("not authorized") {
            throw StoreError.readOnlyViolation(sql: sql)
        } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
            // Compiling reads only the schema: a plain SQLITE_ERROR here is the statement's
            // own mistake (damage, I/O and locks have codes of their own).
            throw InvalidStatement(message: error.message, sql: sql)
        }
        guard statement.isReadOnly else { throw StoreError.readOnlyViolation(sql: sql) }
        db.limitRunningTime(to: limits.seconds)
        var rows: [[SQLValue]] = []
        var truncated = false
        do {
            while try statement.step() {
                if rows.count == limits.maxRows {
                    truncated = true
                    break
                }
                rows.append(statement.row())
            }
        } catch let error as SQLiteError where error.primaryCode == SQLITE_INTERRUPT {
            throw StoreError.queryTimedOut(seconds: limits.seconds)
        }
        statement.reset()
        return QueryResult(table: ResultTable(columns: statement.columnNames, rows: rows), truncated: truncated)
    }
}
