import Foundation
import ProfilerModel

/// A plain aligned table for terminals: numbers right-aligned, text left-aligned.
package struct TableRenderer: Renderer {
    package init() {}

    package func render(_ table: ResultTable) -> String {
        let cells = table.rows.map { $0.map(\.displayText) }
        var widths = table.columns.map(\.count)
        for row in cells {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        let numeric = table.columns.indices.map { column in
            !table.rows.isEmpty && table.rows.allSatisfy { column < $0.count && ($0[column].isNumeric || $0[column] == .null) }
        }
        func line(_ values: [String]) -> String {
            values.enumerated().map { i, value in
                let pad = String(repeating: " ", count: widths[i] - value.count)
                return numeric[i] ? pad + value : value + pad
            }.joined(separator: "  ").trimmingTrailingWhitespace()
        }
        var out = [line(table.columns), line(widths.map { String(repeating: "-", count: $0) })]
        out += cells.map(line)
        return out.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Without the whitespace at its end. Not a regular expression: an `NSRegularExpression`
    /// compiled per line cost `profctl runs` a fifth of its instructions (11M of 54M).
    func trimmingTrailingWhitespace() -> String {
        guard let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[...last])
    }
}
