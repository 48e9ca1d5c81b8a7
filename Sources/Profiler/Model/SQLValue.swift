/// One SQLite value, as stored: the five storage classes.
package enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package var int64: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v): Int64(exactly: v)
        default: nil
        }
    }

    package var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: nil
        }
    }

    package var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByFloatLiteral {
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(stringLiteral value: String) { self = .text(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue {
    package init(_ value: Int) { self = .integer(Int64(value)) }
    package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
}
