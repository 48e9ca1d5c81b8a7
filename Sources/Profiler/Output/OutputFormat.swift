import Foundation
import ProfilerModel

/// Every format profctl prints or writes, in one place. A kind of result offers some of
/// them (`FormatMenu`); the command line takes only those, lists them in its help and in
/// the error for any other name, so a format is added here (a case, and the switches
/// below that the compiler then points at), in its renderer's file, and in the menus
/// that offer it.
package enum OutputFormat: String, Sendable, CaseIterable {
    case table, markdown, csv, json, html, junit, github
    case chromeTrace = "chrome-trace"
    case pprof

    /// Renders one table. Throws for a format made for another kind of result (check
    /// verdicts, traces, profiles): the menus never offer those for tables.
    package func render(_ table: ResultTable) throws -> String {
        switch self {
        case .table: TableRenderer().render(table)
        case .markdown: MarkdownRenderer().render(table)
        case .csv: CSVRenderer().render(table)
        case .json: JSONRenderer().render(table)
        case .html: HTMLTableRenderer().render(table)
        case .junit, .github, .chromeTrace, .pprof: throw FormatNotOffered(format: self, offered: TableFormats.formats)
        }
    }

    /// A caption above a table, as this format prints it; nil where text before the table
    /// would break the document (CSV, JSON, HTML, ...): callers put it on stderr instead.
    package func caption(_ text: String) -> String? {
        switch self {
        case .table: return text + "\n\n"
        case .markdown:
            // Bold lines; several lines end with Markdown's hard break (two spaces) each.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count == 1 ? "**\(text)**\n\n" : lines.map { "**\($0)**  " }.joined(separator: "\n") + "\n\n"
        case .csv, .json, .html, .junit, .github, .chromeTrace, .pprof: return nil
        }
    }

    /// The formats as help lists them: "table, markdown, csv, json or html".
    package static func list(_ formats: [OutputFormat]) -> String {
        let names = formats.map(\.rawValue)
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A kind of result and the formats it can be printed in, in the order help lists them.
package protocol FormatMenu: Sendable {
    static var formats: [OutputFormat] { get }
}

/// Any result that is a table (`OutputFormat.render`): runs, query results, sites, trends...
package enum TableFormats: FormatMenu {
    package static let formats: [OutputFormat] = [.table, .markdown, .csv, .json, .html]
}

/// Runs written in another tool's format (`profctl export`).
package enum ExportFormats: FormatMenu {
    package static let formats: [OutputFormat] = [.chromeTrace, .pprof]
}

/// A format asked of a result that does not offer it.
package struct FormatNotOffered: Error, LocalizedError, Sendable {
    package let format: OutputFormat
    package let offered: [OutputFormat]
    package init(format: OutputFormat, offered: [OutputFormat]) {
        self.format = format
        self.offered = offered
    }
    package var errorDescription: String? {
        "\(format.rawValue) is not a format of this result: use \(OutputFormat.list(offered))"
    }
}

/// A table as a standalone HTML page (reports in HTML also get charts: HTMLReport).
package struct HTMLTableRenderer: Renderer {
    package init() {}
    package func render(_ table: ResultTable) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>profctl</title><style>\(HTMLReport.style)</style></head><body>\n"
            + HTMLReport.table(table) + "</body></html>\n"
    }
}

/// Formats a result table as text. Renderers only format: no queries, no arithmetic.
package protocol Renderer: Sendable {
    func render(_ table: ResultTable) -> String
}
