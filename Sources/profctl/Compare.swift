import ArgumentParser
import Profiler
import ProfilerCLI

struct Compare: StoreCommand, Exemplified {
    static let examples = [
        "profctl compare 2d0aa0d3 8c66a13e",
        "profctl compare main latest --format markdown",
        "profctl compare previous latest --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Show every metric of two runs side by side: values, absolute and relative change, verdict.",
        discussion: """
            A is the baseline, B the run compared with it: run ids, prefixes, or `latest` \
            (the newest complete run); A may also be a label, previous or median:N, resolved \
            for B's scenario. The first lines say which run is A and which is B. Runs of two \
            kinds of report (lazy-container and image-cache) share no metric: exit 64. An aborted \
            or running run is compared, with a note on stderr that its figures are partial.

            Exit codes: 0 whatever changed (use `check` to gate), 1 B not found or another \
            error, 5 A not found, 64 usage; 3 and 7 to 10 for database files as everywhere.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions
    @Argument(help: "The earlier run (the baseline).") var first: String
    @Argument(help: "The later run.") var second: String
    @Option(help: TableFormat.help()) var format = TableFormat(.table)

    func execute() throws {
        let db = try store.open(database)
        let later = try RunQueries.resolve(second, in: db)
        let earlier = try BaselineResolver.resolve(first, for: later, in: db)
        // Two kinds of report share no metric: every row would read `new` or `missing`.
        if let other = earlier.first(where: { $0.report != later.report }) {
            Console.error("A is a run of \(other.scenario) (\(other.report) report), B of \(later.scenario) (\(later.report) report): "
                + "they have no metric in common; compare two runs of one scenario (profctl runs lists them)")
            throw ExitCode(ExitCodes.usage)
        }
        let verdicts = try Checker.compare(later, against: earlier, CheckRequest(baseline: nil), in: db).verdicts
        noteIncomplete(earlier + [later])
        let heading = Self.heading(earlier: earlier, later: later)
        if let caption = format.format.caption(heading) { Console.output(caption) } else { Console.message(heading) }
        let differences = BaselineResolver.environmentDifferences(later, earlier)
        if !differences.isEmpty { Console.message("note: the runs differ in environment: " + differences.joined(separator: "; ")) }
        Console.output(try format.format.render(CheckOutput.table(verdicts)))
    }

    /// "A (baseline): ..." and "B: ...": which run is which, on stdout for text formats,
    /// on stderr for csv and json so their output stays one table.
    static func heading(earlier: [RunInfo], later: RunInfo) -> String {
        func describe(_ run: RunInfo) -> String {
            "\(run.scenario) run \(run.runID.prefix(8)), started \(run.startedAt)\(run.status == RunInfo.complete ? "" : ", \(run.status)")"
        }
        let a = earlier.count == 1 ? earlier.map(describe).joined()
            : "median of \(earlier.count) runs: " + earlier.map { String($0.runID.prefix(8)) }.joined(separator: ", ")
        return "A (baseline): \(a)\nB: \(describe(later))"
    }
}
