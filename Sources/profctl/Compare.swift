import ArgumentParser
import Profiler
import ProfilerCLI

struct Compare: ParsableCommand, Exemplified {
    static let examples = [
        "profctl compare 2d0aa0d3 8c66a13e",
        "profctl compare main latest --format markdown",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Show every metric of two runs side by side: values, absolute and relative change, verdict.",
        discussion: "A and B are run ids, prefixes, `latest`, or labels of B's scenario. Exits 0 whatever changed; use `check` to gate."
    )

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The earlier run (the baseline).") var first: String
    @Argument(help: "The later run.") var second: String
    @Option(help: "table, markdown, csv or json.") var format = OutputFormat.table

    func run() throws {
        try reportingErrors {
            let db = try ProfileStore.openForReading(path: database.path)
            let later = try RunQueries.resolve(second, in: db)
            let earlier = try BaselineResolver.resolve(first, for: later, in: db)
            var request = CheckRequest(baseline: nil)
            request.allowEnvironmentMismatch = true
            let verdicts = CheckEngine.compare(current: try MetricCatalog.metrics(of: later, in: db),
                                               baselines: try earlier.map { try MetricCatalog.metrics(of: $0, in: db) },
                                               statistics: request.statistics)
            let differences = BaselineResolver.environmentDifferences(later, earlier)
            if !differences.isEmpty { Console.message("note: the runs differ in environment: " + differences.joined(separator: "; ")) }
            Console.output(format.renderer.render(CheckOutput.table(verdicts)))
        }
    }
}
