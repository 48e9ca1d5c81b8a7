import Foundation
import ProfilerModel

/// Why a database cannot be used, each with the fix in its message.
public enum StoreError: Error, CustomStringConvertible, Equatable, Sendable {
    case missingDatabase(path: String)
    case emptyDatabase(path: String)
    case notADatabase(path: String)
    /// SQLite's own checks found the file damaged (`PRAGMA quick_check` on open, or a
    /// page it could not read mid-query): its figures cannot be trusted.
    case damagedDatabase(path: String, detail: String)
    case notAFile(path: String, kind: String)
    case foreignDatabase(path: String, reason: String)
    case multipleStatements(sql: String)
    case truncatedDatabase(path: String, expected: Int, actual: Int)
    case schemaNewer(path: String, found: Int, known: Int)
    case needsMigration(path: String, found: Int, latest: Int)
    case checksumMismatch(path: String, version: Int, name: String)
    case runNotFound(path: String, run: String)
    case noRuns(path: String)
    case readOnlyViolation(sql: String)
    case queryTimedOut(seconds: Double)

    public var description: String {
        switch self {
        case .missingDatabase(let path):
            "no database at \(path); record a run into it first (recording creates the file)"
        case .emptyDatabase(let path):
            "\(path) is an empty file: nothing has been recorded into it yet"
        case .notAFile(let path, let kind):
            "\(path) is \(kind), not a database file; use a file path (recording creates a new one)"
        case .foreignDatabase(let path, let reason):
            "\(path) belongs to another application: \(reason). profctl left it untouched; use a profctl database or a new file"
        case .multipleStatements(let sql):
            "query runs one statement at a time; remove what follows the first one: \(sql.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))"
        case .truncatedDatabase(let path, let expected, let actual):
            "\(path) is truncated: its header says \(expected) bytes, the file has \(actual); restore it from a copy (the file was not changed)"
        case .notADatabase(let path):
            "\(path) is not a SQLite database (or is damaged); use a profctl database or a new file"
        case .damagedDatabase(let path, let detail):
            "\(path) is damaged (SQLite: \(detail)); no figures are read from it. profctl did not change it: restore it from a copy, or save what is readable with: sqlite3 \(path) .recover | sqlite3 recovered.sqlite"
        case .schemaNewer(let path, let found, let known):
            "\(path) has schema version \(found), newer than this profctl understands (\(known)); use a newer profctl"
        case .needsMigration(let path, let found, let latest):
            "\(path) has schema version \(found); this profctl expects \(latest): migrate it first (profctl migrate; from Swift, ProfileStore.openAndMigrate)"
        case .checksumMismatch(let path, let version, let name):
            "\(path): migration \(version) (\(name)) differs from the one applied to this database; migrations must never be edited once shipped"
        case .runNotFound(let path, let run):
            "no run \(run) in \(path) (a run is named by its id, a unique prefix of it, or latest)"
        case .noRuns(let path):
            "\(path) holds no complete runs yet; record one into it first"
        case .readOnlyViolation(let sql):
            "query is read-only and this statement would change the database or reach outside it (a write, ATTACH, a pragma that sets a value, or an extension): \(sql.trimmingCharacters(in: .whitespacesAndNewlines)). Use the sqlite3 shell for that."
        case .queryTimedOut(let seconds):
            "the query was stopped after \(SQLValue.numberText(seconds)) s; narrow it (a WHERE on run_id, a LIMIT) or give it more time"
        }
    }
}
