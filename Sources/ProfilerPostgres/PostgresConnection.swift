import CLibPQ
import Foundation
import Profiler

/// One connection to one PostgreSQL database. It owns the libpq handle and closes it when
/// released. Not thread-safe: each thread opens its own.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// The connection target with any password removed, for messages.
    package let displayName: String

    /// Connects with a libpq connection string: a postgres:// URL, key=value pairs, or ""
    /// (libpq's PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE variables).
    package init(_ target: String) throws {
        displayName = Self.redacted(target)
        // A string libpq cannot parse is a mistake in what was typed, not an unreachable server.
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(target, &parseError) {
            PQconninfoFree(options)
        } else {
            let message = parseError.map { Self.trimmed($0) } ?? "libpq could not parse it"
            PQfreemem(parseError)
            throw PostgresError.invalidTarget(store: displayName, message: message)
        }
        guard let connection = PQconnectdb(target) else {
            throw PostgresError.unreachable(store: displayName, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw Self.connectionError(store: displayName, message: message)
        }
        handle = connection
        // Notices (e.g. "relation already exists, skipping") are not for the user.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Tells a refused login from a server that is not there: both fail PQconnectdb.
    static func connectionError(store: String, message: String) -> PostgresError {
        let lowered = message.lowercased()
        // A TLS-only server (pg_hba.conf hostssl) answering a connection without TLS, or
        // a server without TLS answering sslmode=require.
        if lowered.contains("no encryption") || lowered.contains("server does not support ssl") {
            return .tlsMismatch(store: store, message: message)
        }
        if lowered.contains("authentication failed") || lowered.contains("no password supplied")
            || lowered.contains("password authentication") || lowered.contains("role \"") && lowered.contains("does not exist") {
            return .authenticationFailed(store: store, message: message)
        }
        return .unreachable(store: store, message: message)
    }

    /// A URL or key=value string without its password.
    static func redacted(_ target: String) -> String {
        if target.isEmpty { return "(libpq environment)" }
        if var parts = URLComponents(string: target), parts.scheme?.hasPrefix("postgres") == true {
            if parts.password != nil { parts.password = "***" }
            parts.queryItems = parts.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
            return parts.string ?? "(a postgres:// URL)"
        }
        return target.split(separator: " ").map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: " ")
    }

    static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Turns a failed result (or a lost connection) into an error that says which.
    func check(_ result: OpaquePointer?, accepting accepted: [ExecStatusType]) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if accepted.contains(status) { return }
        let message = result.flatMap { Self.trimmed(PQresultErrorMessage($0)) } ?? Self.trimmed(PQerrorMessage(handle))
        let sqlState = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        if PQstatus(handle) != CONNECTION_OK || sqlState.hasPrefix("08") || sqlState == "57P01" {
            throw PostgresError.unreachable(store: displayName, message: message.isEmpty ? "the connection was lost" : message)
        }
        throw PostgresError.server(store: displayName, sqlState: sqlState.isEmpty ? "?" : sqlState, message: message)
    }

    /// Runs statements that return nothing of interest (several may be given at once).
    package func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY])
    }

    /// Rows of one statement with bound values ($1, $2, ...), as SQLite-like values.
    package func query(_ sql: String, _ values: [SQLValue] = []) throws -> ResultTable {
        let texts: [String?] = values.map(Self.parameterText)
        let cStrings = texts.map { $0.map { strdup($0) } ?? nil }
        defer { cStrings.forEach { free($0) } }
        let result = cStrings.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                PQexecParams(handle, sql, Int32(values.count), nil, pointers.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        try check(result, accepting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
        guard let result else { return ResultTable(columns: [], rows: []) }
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(PQntuples(result)))
        for row in 0..<PQntuples(result) {
            rows.append((0..<columnCount).map { column in
                if PQgetisnull(result, row, column) != 0 { return .null }
                return Self.value(String(cString: PQgetvalue(result, row, column)), type: types[Int(column)])
            })
        }
        return ResultTable(columns: columns, rows: rows)
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try query(sql, values).rows.first?.first
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = PQexec(handle, "ROLLBACK").map(PQclear)
            throw error
        }
    }

    /// Bulk-loads rows with COPY ... FROM STDIN (text format), in chunks.
    /// `write` appends rows to the buffer it is given; it is called until it returns false.
    package func copy(into table: String, columns: [String], _ write: (inout CopyBuffer) throws -> Bool) throws {
        let start = PQexec(handle, "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN")
        defer { PQclear(start) }
        try check(start, accepting: [PGRES_COPY_IN])
        var buffer = CopyBuffer()
        var more = true
        while more {
            do {
                more = try write(&buffer)
            } catch {
                _ = PQputCopyEnd(handle, "profctl stopped the copy")
                PQclear(PQgetResult(handle))
                throw error
            }
            if !buffer.bytes.isEmpty || !more {
                let sent = buffer.bytes.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
                }
                if sent != 1 { throw PostgresError.unreachable(store: displayName, message: Self.trimmed(PQerrorMessage(handle))) }
                buffer.bytes.removeAll(keepingCapacity: true)
            }
        }
        guard PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError.unreachable(store: displayName, message: Self.trimmed(PQerrorMessage(handle)))
        }
        var failure: (any Error)?
        while let result = PQgetResult(handle) {
            if failure == nil {
                do { try check(result, accepting: [PGRES_COMMAND_OK]) } catch { failure = error }
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    // MARK: Values

    static func parameterText(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let v): String(v)
        case .real(let v): CopyBuffer.text(v)
        case .text(let v): v
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// Built-in type OIDs (pg_type.h): integers and floats keep their kind, the rest is text.
    static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 20, 21, 23, 26: Int64(text).map(SQLValue.integer) ?? .text(text)
        case 700, 701, 1700:
            switch text {
            case "NaN": .real(.nan)
            case "Infinity": .real(.infinity)
            case "-Infinity": .real(-.infinity)
            default: Double(text).map(SQLValue.real) ?? .text(text)
            }
        case 16: .integer(text == "t" ? 1 : 0)
        default: .text(text)
        }
    }
}

/// Rows in PostgreSQL's COPY text format: tab-separated, \N for NULL, backslash escapes.
package struct CopyBuffer {
    package var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 20) }

    /// Full enough to send.
    package var isFull: Bool { bytes.count >= (1 << 20) - 4096 }

    package mutating func appendRow(_ values: [SQLValue]) {
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(9) }
            append(value)
        }
        bytes.append(10)
    }

    package mutating func append(_ value: SQLValue) {
        switch value {
        case .null: bytes.append(contentsOf: [92, 78])  // \N
        case .integer(let v): append(integer: v)
        case .real(let v): bytes.append(contentsOf: Array(Self.text(v).utf8))
        case .text(let v): appendEscaped(v)
        case .blob(let b): appendEscaped("\\x" + b.map { String(format: "%02x", $0) }.joined())
        }
    }

    package mutating func append(integer value: Int64) {
        if value == 0 { bytes.append(48); return }
        if value < 0 { bytes.append(45) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                raw[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(raw[index]) }
        }
    }

    mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case 92: bytes.append(contentsOf: [92, 92])
            case 9: bytes.append(contentsOf: [92, 116])
            case 10: bytes.append(contentsOf: [92, 110])
            case 13: bytes.append(contentsOf: [92, 114])
            default: bytes.append(byte)
            }
        }
    }

    /// Shortest round-trip text for a double, in PostgreSQL's spelling of the specials.
    static func text(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
        return "\(value)"
    }
}
