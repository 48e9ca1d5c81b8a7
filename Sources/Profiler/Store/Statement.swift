import CSQLite
import ProfilerModel

/// One prepared statement. It owns its handle and finalizes it when released.
package final class Statement {
    let handle: OpaquePointer
    package let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, handle: OpaquePointer, sql: String) {
        self.connection = connection
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// True when the statement makes no direct change to the database file.
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    package var columnNames: [String] {
        (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// Binds values to ?1, ?2, ... in order, after clearing earlier bindings.
    package func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds an integer without going through SQLValue: the writer's hot path.
    @inline(__always)
    package func bind(int value: Int64, at index: Int32) throws {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds integers to ?1, ?2, ... in order, in one call: the writer binds 576 per
    /// execution of its 64-row insert, and a call per value into this module cost about
    /// 20 instructions of its own each.
    package func bind(ints values: UnsafeBufferPointer<Int64>) throws {
        var index: Int32 = 1
        for value in values {
            let code = sqlite3_bind_int64(handle, index, value)
            guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
            index &+= 1
        }
    }

    package func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
        case .real(let v): code = sqlite3_bind_double(handle, index, v)
        case .text(let v): code = profctl_sqlite3_bind_text_transient(handle, index, v, -1)
        case .blob(let bytes):
            code = bytes.withUnsafeBytes {
                sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), nil)
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Advances one row. Returns false when the statement is done.
    @discardableResult
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    package func reset() { sqlite3_reset(handle) }

    package func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .null }
            return .text(String(cString: text))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// The current row, one value per column.
    package func row() -> [SQLValue] {
        (0..<sqlite3_column_count(handle)).map { value(at: $0) }
    }

    /// Runs the statement with the given values and collects every row.
    package func rows(_ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try bind(values)
        defer { reset() }
        var result: [[SQLValue]] = []
        while try step() { result.append(row()) }
        return result
    }

    /// Runs the statement with the given values, ignoring any rows.
    package func run(_ values: [SQLValue] = []) throws {
        try bind(values)
        defer { reset() }
        while try step() {}
    }
}
