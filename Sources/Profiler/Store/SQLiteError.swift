import CSQLite
import Foundation

/// A failed SQLite call: the result code, SQLite's own message, and the SQL involved.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package let code: Int32
    package let message: String
    package let sql: String?

    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (extended codes carry detail in their upper bits).
    package var primaryCode: Int32 { code & 0xFF }

    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// What a result code usually means for the user.
    var hint: String? {
        switch primaryCode {
        case SQLITE_FULL: "the disk is full, or a file size limit was reached"
        case SQLITE_IOERR: "an I/O error: the disk may be full, a file size limit reached, or the disk failing"
        case SQLITE_READONLY: "the database file or its folder is not writable"
        case SQLITE_CANTOPEN: "the file or its folder cannot be opened: check the path and its permissions"
        case SQLITE_BUSY, SQLITE_LOCKED: "another process held the database for too long; try again"
        default: nil
        }
    }

    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let hint { text += " (\(hint))" }
        if let sql { text += " (while running: \(sql.trimmingCharacters(in: .whitespacesAndNewlines)))" }
        return text
    }
}
