import Foundation
import Profiler
import ProfilerCLI

/// Puts run reports into the chosen format. JSON: one report is
/// {"run": {...}, "report": kind, "bytes": measure, "rows": [...]}; several are
/// {"reports": [...]}. Text formats: a caption and a table per report.
enum ReportPrinter {
    static func render(_ reports: [RunReport], format: OutputFormat) throws -> String {
        switch format {
        case .json:
            let objects = try reports.map(json)
            return (objects.count == 1 ? objects[0] : "{\"reports\": [\n" + objects.joined(separator: ",\n") + "\n]}") + "\n"
        case .csv:
            // One header per report; reports of different kinds have different columns.
            return try reports.map { try format.render($0.table) }.joined(separator: "\r\n")
        default:
            // A caption and a table per report (HTML pages are drawn by HTMLReport).
            return try reports.map { report in
                (format.caption(caption(report)) ?? "") + (try format.render(report.table))
            }.joined(separator: "\n")
        }
    }

    static func caption(_ report: RunReport) -> String {
        let run = report.run
        var parts = [run.scenario, "run \(run.runID.prefix(8))", run.startedAt, "\(run.buildConfiguration) build"]
        if let measure = report.measure { parts.append("\(measure.rawValue) bytes, against \(run.baselineStrategy)") }
        return parts.joined(separator: ", ")
    }

    private static func json(_ report: RunReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let run = String(decoding: try encoder.encode(report.run), as: UTF8.self)
        let rows = JSONRenderer().render(report.table).trimmingCharacters(in: .whitespacesAndNewlines)
        var fields = ["\"run\": \(run)", "\"report\": \(JSONText.string(report.declaration.name))"]
        if let measure = report.measure { fields.append("\"bytes\": \(JSONText.string(measure.rawValue))") }
        fields.append("\"rows\": \(rows)")
        return "{\n" + fields.joined(separator: ",\n") + "\n}"
    }
}
