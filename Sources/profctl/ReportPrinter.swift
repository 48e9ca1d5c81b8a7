import Foundation
import Profiler
import ProfilerCLI

/// Puts run reports into the chosen format. JSON: one report is
/// {"run": {...}, "report": kind, "bytes": measure, "rows": [...]}; several are
/// {"reports": [...]}. CSV: one table; for several runs with `scenario` and `run_id`
/// first (one file a CSV reader loads in one call). Text formats: a caption and a table per report.
enum ReportPrinter {
    static func render(_ reports: [RunReport], format: OutputFormat) throws -> String {
        switch format {
        case .json:
            let objects = try reports.map(json)
            return (objects.count == 1 ? objects[0] : "{\"reports\": [\n" + objects.joined(separator: ",\n") + "\n]}") + "\n"
        case .csv:
            return try format.render(reports.count == 1 ? reports[0].table : combined(reports))
        default:
            // A caption and a table per report (HTML pages are drawn by HTMLReport).
            return try reports.map { report in
                (format.caption(caption(report)) ?? "") + (try format.render(report.table))
            }.joined(separator: "\n")
        }
    }

    /// Several reports as one table: `scenario`, `run_id`, then every report's columns in
    /// the order they first appear; a column a report does not have is empty (NULL) in its rows.
    static func combined(_ reports: [RunReport]) -> ResultTable {
        let keys = ["scenario", "run_id"]
        var columns: [String] = []
        for report in reports {
            for column in report.table.columns where !keys.contains(column) && !columns.contains(column) { columns.append(column) }
        }
        let rows = reports.flatMap { report in
            let index = Dictionary(report.table.columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return report.table.rows.map { row in
                [.text(report.run.scenario), .text(report.run.runID)]
                    + columns.map { column in index[column].flatMap { $0 < row.count ? row[$0] : nil } ?? .null }
            }
        }
        return ResultTable(columns: keys + columns, rows: rows)
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
