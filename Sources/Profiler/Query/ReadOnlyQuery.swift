/// Runs analysts' SQL against a database opened read-only. A statement that would
/// write is refused before it runs, with a message saying so.
public enum ReadOnlyQuery {
    public static func run(_ sql: String, on db: SQLiteConnection) throws -> ResultTable {
        let statement = try db.prepare(sql)
        guard statement.isReadOnly else { throw StoreError.readOnlyViolation(sql: sql) }
        let columns = statement.columnNames
        return ResultTable(columns: columns, rows: try statement.rows())
    }
}
