import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct TrendCommand: StoreCommand, Exemplified {
    static let examples = [
        "profctl trend --scenario lazy-container --component Label --strategy eager --metric bytes_per_instance",
        "profctl trend --scenario image-cache --strategy strong-cache --metric live_bytes_while_shown --format csv",
        "profctl trend --scenario lazy-container --metric create_ns@build --limit 200 --format json",
        "profctl trend --scenario lazy-container --changes --limit 500 --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        commandName: "trend",
        abstract: "One metric of one scenario over its last runs: date, commit, value, and where its level shifted.",
        discussion: """
            Metric names are report columns (docs/schema.md), \(RunMetric.allCases.map(\.name).joined(separator: ", ")), or \
            latencies like create_ns@build. Each (component, strategy) the options leave open \
            is a series of its own, with its component and strategy on every row; with \
            several, stderr names them all. A name that does not exist exits 64 with the \
            valid ones.

            Change points: the run where a level shift began carries shift_pct, before_median \
            and after_median (the medians of the levels before and after it). Latencies are \
            split by E-Divisive means with a permutation test (--min-segment, --significance, \
            --permutations; a fixed seed, so the same history gives the same answer); bytes \
            and counts change at the first run that differs (counts beyond their slack). \
            --changes lists only the change points, of every series, oldest first, with their \
            commit and p-value; without --metric it covers every metric of the scenario. \
            docs/cli.md says how the method was chosen and how often noise fools it.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions
    @Option(help: "The scenario.") var scenario: String
    @Option(help: "The metric (optional with --changes: every metric).") var metric: String?
    @Option(help: "The component (for per-component reports).") var component: String?
    @Option(help: "The strategy.") var strategy: String?
    @Option(parsing: .unconditional, help: "How many runs, newest last (1 or more).") var limit = 20
    @Option(help: TableFormat.help()) var format = TableFormat(.table)
    @Flag(help: "List only the change points, of every series (and every metric without --metric).") var changes = false
    @Option(name: .customLong("min-segment"), parsing: .unconditional,
            help: "Latency change points: the fewest runs on each side (2 or more).")
    var minSegment = ChangePointParameters.defaultMinSegment
    @Option(parsing: .unconditional, help: "Latency change points: the largest p-value kept (more than 0, less than 1).")
    var significance = ChangePointParameters.defaultSignificance
    @Option(parsing: .unconditional,
            help: "Latency change points: reorderings in the permutation test (1 to \(ChangePointParameters.maxPermutations)).")
    var permutations = ChangePointParameters.defaultPermutations

    /// The change point options, checked once by validate(): what run() uses.
    var changePointParameters: ChangePointParameters?

    enum CodingKeys: CodingKey {
        case database, store, scenario, metric, component, strategy, limit, format, changes, minSegment, significance, permutations
    }

    mutating func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
        guard metric != nil || changes else {
            throw ValidationError("--metric is needed (or --changes, to list the change points of every metric)")
        }
        changePointParameters = try parameters()
    }

    /// The change point parameters, or a usage error naming the option.
    func parameters() throws -> ChangePointParameters {
        do {
            return try ChangePointParameters(minSegment: minSegment, significance: significance, permutations: permutations)
        } catch .minSegment(let value) {
            throw ValidationError("--min-segment must be at least 2 runs (got \(value)): one run is not a level")
        } catch .significance(let value) {
            throw ValidationError("--significance must be more than 0 and less than 1 (got \(value)); the default is \(ChangePointParameters.defaultSignificance)")
        } catch .permutations(let value) {
            throw ValidationError("--permutations must be from 1 to \(ChangePointParameters.maxPermutations) (got \(value))")
        } catch .permutationsCannotReach(let level, let count, let needed) {
            throw ValidationError("--permutations \(count) cannot reach --significance \(level): the smallest p-value is 1/(permutations + 1); use at least \(needed) permutations or a larger significance")
        }
    }

    func execute() throws {
        // validate() has checked them whenever the parser made this command.
        let parameters = try changePointParameters ?? parameters()
        let db = try store.open(database)
        try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db)
        let names = try ScenarioNames.load(scenario, in: db)
        try names.check(metric: nil, component: nil, strategy: strategy, origin: "--strategy")
        try names.check(metric: nil, component: component, strategy: nil, origin: "--component")
        // One type's objects per instance is a metric of the runs recorded with --types
        // (an unknown type exits 64 with the known ones); the family alone names many.
        if metric == TypeMetricName.family {
            Console.error("--metric \(TypeMetricName.family) stands for every type's metric; trend one type's, "
                + "--metric '\(TypeMetricName(type: "TYPE").name)' (profctl types lists a run's types)")
            throw ExitCode(ExitCodes.usage)
        }
        if let metric {
            if let typeMetric = TypeMetricName(metric) {
                try TypeMetric.requireKnown(typeMetric.type, scenario: scenario, origin: "--metric", in: db)
            } else {
                try names.check(metric: metric, component: nil, strategy: nil, origin: "--metric")
            }
        }
        let (runs, series) = try Trend.series(scenario: scenario, metric: metric, component: component, strategy: strategy,
                                              limit: limit, in: db)
        guard !runs.isEmpty else { throw NoCompleteRun(scenario: scenario, path: db.storeName) }
        guard !series.isEmpty else {
            let what = metric.map { "no metric '\($0)'" } ?? "no metric"
            throw ScenarioError.invalidOption("\(what)\(component.map { " of \($0)" } ?? "")\(strategy.map { " for \($0)" } ?? "") in \(scenario) runs")
        }
        let found = series.map { Trend.changes(in: $0, parameters: parameters) }
        if changes {
            Console.output(try format.format.render(TrendTables.changes(found.flatMap { $0 }, runs: runs)))
            let count = found.reduce(0) { $0 + $1.count }
            Console.message("\(count) level shift\(count == 1 ? "" : "s") in \(series.count) series over \(runs.count) runs")
            return
        }
        Console.output(try format.format.render(TrendTables.points(series, changes: found)))
        if series.count > 1 {
            Console.message("\(series.count) series of \(metric ?? ""): " + series.map(\.label).joined(separator: ", ")
                            + " (--component and --strategy pick one)")
        }
        let shifted = found.filter { !$0.isEmpty }
        if !shifted.isEmpty {
            let count = shifted.reduce(0) { $0 + $1.count }
            Console.message("\(count) level shift\(count == 1 ? "" : "s") in \(shifted.count) of \(series.count) series (rows with shift_pct; --changes lists only them)")
        }
        if format == .table && isatty(STDOUT_FILENO) != 0 {
            Console.output("\n" + TrendTables.sparklines(series, changes: found) + "\n")
        }
    }
}

/// The trend command's tables: formatting only, the figures come from Trend.
enum TrendTables {
    /// One row per (series, run), the run where a level began carrying the shift.
    static func points(_ series: [TrendSeries], changes: [[TrendChange]]) -> ResultTable {
        var rows: [[SQLValue]] = []
        for (line, shifts) in zip(series, changes) {
            for (index, p) in line.points.enumerated() {
                let shift = shifts.first { $0.pointIndex == index }?.change
                rows.append(runColumns(p.run) + [.text(line.component), .text(line.strategy), p.value.map(SQLValue.real) ?? .null,
                                                 percent(shift?.shiftPercent), real(shift?.beforeMedian), real(shift?.afterMedian)])
            }
        }
        return ResultTable(columns: ["started_at", "run_id", "git_commit", "branch", "component", "strategy", "value",
                                     "shift_pct", "before_median", "after_median"], rows: rows)
    }

    /// Only the change points, oldest run first (then in series order): the commits that
    /// moved a figure.
    static func changes(_ changes: [TrendChange], runs: [RunInfo]) -> ResultTable {
        let order = Dictionary(runs.enumerated().map { ($1.runID, $0) }, uniquingKeysWith: { a, _ in a })
        let sorted = changes.enumerated().sorted { a, b in
            (order[a.element.run.runID] ?? 0, a.offset) < (order[b.element.run.runID] ?? 0, b.offset)
        }.map(\.element)
        return ResultTable(
            columns: ["started_at", "run_id", "git_commit", "branch", "metric", "component", "strategy",
                      "before_median", "after_median", "shift_pct", "p_value", "method"],
            rows: sorted.map { c in
                runColumns(c.run) + [.text(c.series.metric), .text(c.series.component), .text(c.series.strategy),
                                     .real(c.change.beforeMedian), .real(c.change.afterMedian), percent(c.change.shiftPercent),
                                     real(c.change.pValue.map { ($0 * 10_000).rounded() / 10_000 }), .text(c.method)]
            })
    }

    /// A sparkline per series, with ^ under each run where a level shift began.
    static func sparklines(_ series: [TrendSeries], changes: [[TrendChange]]) -> String {
        let width = series.map { "\($0.metric) \($0.label)".count }.max() ?? 0
        return zip(series, changes).map { line, shifts in
            let name = "\(line.metric) \(line.label)".padding(toLength: width, withPad: " ", startingAt: 0)
            var text = "\(name): " + Trend.sparkline(line.points.map(\.value))
            if !shifts.isEmpty {
                let marks = String(line.points.indices.map { i in shifts.contains { $0.pointIndex == i } ? "^" : " " })
                text += "\n" + String(repeating: " ", count: width + 2) + marks
            }
            return text
        }.joined(separator: "\n")
    }

    static func runColumns(_ run: RunInfo) -> [SQLValue] {
        [.text(run.startedAt), .text(run.runID), SQLValue(run.gitCommit.map { String($0.prefix(12)) }), SQLValue(run.branch)]
    }

    /// A percentage to two decimals, or NULL.
    static func percent(_ value: Double?) -> SQLValue {
        real(value.map { ($0 * 100).rounded() / 100 })
    }

    static func real(_ value: Double?) -> SQLValue {
        value.map(SQLValue.real) ?? .null
    }
}
