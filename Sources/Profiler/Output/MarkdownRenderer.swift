import Foundation
import ProfilerModel

/// A GitHub-flavoured Markdown table, for pull-request comments and docs.
package struct MarkdownRenderer: Renderer {
    package init() {}

    package func render(_ table: ResultTable) -> String {
        // A pipe ends a cell and a newline ends the row: neither may pass through as is.
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "|", with: "\\|")
                .replacingOccurrences(of: "\r\n", with: "<br>")
                .replacingOccurrences(of: "\n", with: "<br>")
        }
        let numeric = table.columns.indices.map { column in
            !table.rows.isEmpty && table.rows.allSatisfy { column < $0.count && ($0[column].isNumeric || $0[column] == .null) }
        }
        var out = "| " + table.columns.map(escape).joined(separator: " | ") + " |\n"
        out += "|" + numeric.map { $0 ? "---:|" : "---|" }.joined() + "\n"
        for row in table.rows {
            out += "| " + row.map { escape($0.displayText) }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
