import Foundation

/// ISO 8601 timestamps in UTC with milliseconds (2026-11-22T06:01:44.123Z), the one
/// format the database stores: they sort as text.
enum Timestamp {
    static func now() -> String { string(from: Date()) }

    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
