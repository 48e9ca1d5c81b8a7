import ProfilerModel

/// How results are printed.
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, markdown, csv, json, html

    public var renderer: any Renderer {
        switch self {
        case .table: TableRenderer()
        case .markdown: MarkdownRenderer()
        case .csv: CSVRenderer()
        case .json: JSONRenderer()
        case .html: HTMLTableRenderer()
        }
    }
}

/// A table as a standalone HTML page (reports in HTML also get charts: HTMLReport).
public struct HTMLTableRenderer: Renderer {
    public init() {}
    public func render(_ table: ResultTable) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>profctl</title><style>\(HTMLReport.style)</style></head><body>\n"
            + HTMLReport.table(table) + "</body></html>\n"
    }
}

/// Formats a result table as text. Renderers only format: no queries, no arithmetic.
public protocol Renderer: Sendable {
    func render(_ table: ResultTable) -> String
}
