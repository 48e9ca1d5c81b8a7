import Foundation
import ProfilerModel

/// RFC 4180 CSV with a header row; NULL is an empty field, numbers at full precision.
package struct CSVRenderer: Renderer {
    package init() {}

    package func render(_ table: ResultTable) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        func value(_ v: SQLValue) -> String {
            switch v {
            case .null: ""
            case .real(let d): SQLValue.numberText(d)
            default: field(v.displayText)
            }
        }
        var lines = [table.columns.map(field).joined(separator: ",")]
        lines += table.rows.map { $0.map(value).joined(separator: ",") }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
