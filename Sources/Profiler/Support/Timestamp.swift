import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ISO 8601 timestamps in UTC with milliseconds (2026-11-22T06:01:44.123Z), the one
/// format the database stores: they sort as text.
package enum Timestamp {
    package static func now() -> String { string(from: Date()) }

    /// Formatted by hand from gmtime_r: an ISO8601DateFormatter costs milliseconds to
    /// make (ICU loads time zone data), and a run writes two timestamps.
    package static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
            + "T" + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2)
            + "." + pad(Int32(millis), 3) + "Z"
    }
}
