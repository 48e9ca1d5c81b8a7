import Foundation

/// A capacity a user typed: "512KB", "1.5 MiB", "4096" (bytes), or a count of entries.
package enum ByteCapacity {
    /// Units and their bytes: decimal (KB = 1000) and binary (KiB = 1024).
    package static let units: [(name: String, bytes: Double)] = [
        ("B", 1), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824),
    ]

    /// Parses one capacity; throws a message naming what is valid.
    package static func parse(_ text: String, unit: CapacityUnit) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let suffix = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard let number = Double(digits), number.isFinite else { throw CapacityError(text: text, unit: unit, problem: .notACapacity) }
        let multiplier: Double
        switch unit {
        case .entries:
            guard suffix.isEmpty || suffix == "entries", number.rounded() == number else {
                throw CapacityError(text: text, unit: unit, problem: .notACapacity)
            }
            multiplier = 1
        case .bytes:
            guard let known = suffix.isEmpty ? 1 : units.first(where: { $0.name.lowercased() == suffix.lowercased() })?.bytes else {
                throw CapacityError(text: text, unit: unit, problem: .notACapacity)
            }
            multiplier = known
        }
        let value = (number * multiplier).rounded(.down)
        guard value >= 1 else { throw CapacityError(text: text, unit: unit, problem: .zero) }
        guard value < 9e18 else { throw CapacityError(text: text, unit: unit, problem: .notACapacity) }
        return Int(value)
    }
}

/// A capacity that is not one: a number with a unit (bytes), or a whole number (entries),
/// of at least one.
package struct CapacityError: Error, CustomStringConvertible, Equatable, Sendable {
    package enum Problem: Sendable, Equatable { case notACapacity, zero }
    package let text: String
    package let unit: CapacityUnit
    package let problem: Problem

    package var description: String {
        let valid = unit == .bytes
            ? "a number of bytes with an optional unit, one of " + ByteCapacity.units.map(\.name).joined(separator: ", ") + " (512KB, 1.5MiB, 4096)"
            : "a whole number of entries (--by entries), such as 100"
        switch problem {
        case .zero: return "capacity '\(text)' is less than one \(unit == .bytes ? "byte" : "entry"): a cache of nothing answers nothing; give \(valid)"
        case .notACapacity: return "capacity '\(text)' is not a capacity; give \(valid)"
        }
    }
}
