import ArgumentParser
import Profiler

struct Report: ParsableCommand, Exemplified {
    static let examples = [
        "profctl report",
        "profctl report --run 2d0aa0d3 --format json",
        "profctl report --format markdown --bytes usable >> $GITHUB_STEP_SUMMARY",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Print bytes per instance and savings against the baseline for one run.",
        discussion: """
            Every column is derived from the recorded events: saved = baseline - bytes, \
            savings % = 100 x saved / baseline, negative where a strategy costs more.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest` (newest complete run).")
    var runReference = "latest"

    @Option(help: "table, markdown, csv or json.")
    var format = OutputFormat.table

    @Option(help: "requested (what the code asked malloc for) or usable (what malloc handed back).")
    var bytes = ByteMeasure.requested

    func run() throws {
        try reportingErrors {
            let db = try ProfileStore.openForReading(path: database.path)
            let report = try SavingsReport.load(run: runReference, measure: bytes, from: db)
            Console.output(try ReportPrinter.render(report, format: format))
        }
    }
}
