import Foundation
import Profiler

/// Puts a savings report into the chosen format: JSON as {"run": ..., "rows": [...]},
/// the text formats as a caption and a table.
enum ReportPrinter {
    static func render(_ report: SavingsReport, format: OutputFormat) throws -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        case .csv:
            return format.renderer.render(report.table)
        case .table, .markdown:
            let run = report.run
            let caption = "\(run.scenario), run \(run.runID.prefix(8)), \(run.startedAt), "
                + "\(run.buildConfiguration) build, \(report.measure) bytes, against \(run.baselineStrategy)"
            let heading = format == .markdown ? "**\(caption)**\n\n" : caption + "\n\n"
            return heading + format.renderer.render(report.table)
        }
    }
}
