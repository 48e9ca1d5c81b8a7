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
            return reports.map { format.renderer.render($0.table) }.joined(separator: "\r\n")
        case .table, .markdown, .html:
            return reports.map { report in
                let caption = caption(report)
                let heading = format == .markdown ? "**\(caption)**\n\n" : caption + "\n\n"
                return heading + format.renderer.render(report.table)
            }.joined(separator: "\n")
        }
    }

    static func caption(_ report: RunReport) -> String {
        let run = report.run
        var parts = [run.scenario, "run \(run.runID.prefix(8))", run.startedAt, "\(run.buildConfiguration) build"]
        if let measure = report.measure { parts.append("\(measure.rawValue) bytes, against \(run.baselineStrategy)") }
        return parts.joined(separator: ", ")
    }

    /// The run as a JSON object, its `parameters` an object too: the runs table stores them
    /// as JSON text, which encoded as it is became a string a reader had to parse again.
    static func runJSON(_ run: RunInfo) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = try encoder.encode(run)
        guard var object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any],
              let parameters = try? JSONSerialization.jsonObject(with: Data(run.parameters.utf8)) as? [String: Any] else {
            return encoded
        }
        object["parameters"] = parameters
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func json(_ report: RunReport) throws -> String {
        let run = String(decoding: try runJSON(report.run), as: UTF8.self)
        let rows = JSONRenderer().render(report.table).trimmingCharacters(in: .whitespacesAndNewlines)
        var fields = ["\"run\": \(run)", "\"report\": \(JSONText.string(report.declaration.name))"]
        if let measure = report.measure { fields.append("\"bytes\": \(JSONText.string(measure.rawValue))") }
        fields.append("\"rows\": \(rows)")
        return "{\n" + fields.joined(separator: ",\n") + "\n}"
    }
}
