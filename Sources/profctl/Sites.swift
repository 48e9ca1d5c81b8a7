import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Sites: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container --sites --quiet",
        "profctl sites --component Label --strategy eager",
        "profctl sites --kind create --tree",
        "profctl sites --diff latest latest --component Label   # A B: run ids or prefixes (profctl runs)",
        "profctl sites --scenario lazy-container --format html -o sites.html",
    ]

    static let configuration = CommandConfiguration(
        commandName: "sites",
        abstract: "Where the bytes come from: the allocation sites of a run recorded with --sites.",
        discussion: """
            One row per (component, strategy, event kind, site): the site is the innermost \
            function of the user's code on the allocating call stack (docs/hooks.md, "Sites"). \
            live_requested_bytes is what the instances still held when their measurement \
            ended: per component and strategy, the create and realize sites sum to the \
            report's bytes per instance x instances. --tree shows the call trees instead; \
            --diff A B lists the sites that grew, shrank, appeared or vanished from run A to run B; \
            like check with its baseline, it refuses (exit 6) runs recorded in another environment \
            or with other workload parameters unless --allow-env-mismatch or --allow-param-mismatch. \
            --format html draws each (component, strategy, kind) as an icicle chart (SVG) above the table. \
            Default run: the newest one recorded with --sites (of --scenario, when given).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest`. Default: the newest run recorded with --sites.")
    var runReference: String?

    @Option(help: "Only this scenario's runs: its newest run recorded with --sites (with --run or --diff, runs of it).")
    var scenario: String?

    @Option(help: "Only this component's sites.") var component: String?
    @Option(help: "Only this strategy's sites.") var strategy: String?
    @Option(help: "Only this event kind's sites (create, realize, hit, miss, evict, release).") var kind: String?

    @Flag(help: "Call trees of the user's frames, outermost first, instead of a table.") var tree = false

    @Option(name: .customLong("diff"), parsing: .upToNextOption,
            help: ArgumentHelp("Compare two runs' sites (ids, prefixes or latest).", valueName: "A B"))
    var diff: [String] = []

    @OptionGroup var mismatch: MismatchAllowance

    @Option(help: TableFormat.help()) var format = TableFormat(.table)

    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of stdout.")
    var output: String?

    func validate() throws {
        try OutputPath.validate(output)
        try RunListingOptions.validate(runReference: runReference, scenario: scenario, diff: diff, mismatch: mismatch, kind: kind)
        if tree && !diff.isEmpty { throw ValidationError("--tree shows one run; leave it out with --diff") }
        if tree && format != .table { throw ValidationError("--tree is text; leave out --format") }
    }

    func execute() throws {
        let db = try ProfileStore.openForReading(path: database.path)
        if let scenario { try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db) }
        let filter = CaptureFilter(component: component, strategy: strategy, kind: kind)
        if diff.count == 2 {
            return try emit(format.format.render(RunListingOptions.diffTable(
                diff, scenario: scenario, filter: filter, capture: SiteQuery.capture, mismatch: mismatch, in: db,
                rows: { try SiteQuery.rows(runID: $0, filter: filter, in: db) }, compare: SiteDiff.compare, table: SiteDiff.table)))
        }
        let run = try RunListingOptions.listedRun(runReference, scenario: scenario, filter: filter, capture: SiteQuery.capture, in: db)
        let rows = try SiteQuery.rows(runID: run.runID, filter: filter, in: db)
        if tree {
            try emit(SiteQuery.tree(rows, stacks: try SiteQuery.stacks(Set(rows.map(\.stackID)), in: db)))
        } else if format == .html {
            // A page of its own: icicle charts of the call trees, then the table.
            try emit(SiteIcicle.page(rows, stacks: try SiteQuery.stacks(Set(rows.map(\.stackID)), in: db),
                                     runID: run.runID, table: SiteQuery.table(rows)))
        } else {
            try emit(format.format.render(SiteQuery.table(rows)))
        }
    }

    private func emit(_ text: String) throws { try RunListingOptions.emit(text, to: output, capture: SiteQuery.capture) }
}
