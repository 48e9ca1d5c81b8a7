import Foundation
import ProfilerModel

/// A JSON array with one object per row, keys in column order.
package struct JSONRenderer: Renderer {
    package init() {}

    package func render(_ table: ResultTable) -> String {
        let objects = table.rows.map { row in
            "{" + zip(table.columns, row).map { "\(JSONText.string($0)): \(JSONText.value($1))" }.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n  " + objects.joined(separator: ",\n  ") + "\n]\n"
    }
}

/// JSON literals written by hand so that keys keep their column order.
package enum JSONText {
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    package static func value(_ v: SQLValue) -> String {
        switch v {
        case .null: "null"
        case .integer(let i): String(i)
        case .real(let d): d.isFinite ? SQLValue.numberText(d) : "null"
        case .text(let s): string(s)
        case .blob(let bytes): string(bytes.map { String(format: "%02x", $0) }.joined())
        }
    }
}
