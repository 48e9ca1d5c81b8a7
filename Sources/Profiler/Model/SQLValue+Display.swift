extension SQLValue {
    /// How a value reads in a text table: whole numbers without a fraction, NULL as "-".
    package var displayText: String {
        switch self {
        case .null: "-"
        case .integer(let v): String(v)
        case .real(let v): Self.numberText(v)
        case .text(let v): v
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }

    /// A real in its shortest exact form, whole numbers without ".0".
    package static func numberText(_ v: Double) -> String {
        v.rounded() == v && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    package var isNumeric: Bool {
        switch self {
        case .integer, .real: true
        default: false
        }
    }
}
