import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Sites: ParsableCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container --sites --quiet",
        "profctl sites --component Label --strategy eager",
        "profctl sites --kind create --tree",
        "profctl sites --diff latest latest --component Label   # A B: run ids or prefixes (profctl runs)",
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
            --diff A B lists the sites that grew, shrank, appeared or vanished from run A to run B. \
            --format html draws each (component, strategy, kind) as an icicle chart (SVG) above the table. \
            Default run: the newest one recorded with --sites.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest`. Default: the newest run recorded with --sites.")
    var runReference: String?

    @Option(help: "Only this component's sites.") var component: String?
    @Option(help: "Only this strategy's sites.") var strategy: String?
    @Option(help: "Only this event kind's sites (create, realize, hit, miss, evict, release).") var kind: String?

    @Flag(help: "Call trees of the user's frames, outermost first, instead of a table.") var tree = false

    @Option(name: .customLong("diff"), parsing: .upToNextOption,
            help: ArgumentHelp("Compare two runs' sites (ids, prefixes or latest).", valueName: "A B"))
    var diff: [String] = []

    @Option(help: "table, markdown, csv, json or html.") var format = OutputFormat.table

    func validate() throws {
        if !diff.isEmpty && diff.count != 2 { throw ValidationError("--diff takes two runs, A and B (got \(diff.count))") }
        if !diff.isEmpty && runReference != nil { throw ValidationError("--diff names its two runs; leave out --run") }
        if tree && !diff.isEmpty { throw ValidationError("--tree shows one run; leave it out with --diff") }
        if tree && format != .table { throw ValidationError("--tree is text; leave out --format") }
        if let kind, EventKind(rawValue: kind) == nil {
            throw ValidationError("--kind \(kind) is not an event kind; valid choices: "
                                  + EventKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() throws {
        try reportingErrors {
            let db = try ProfileStore.openForReading(path: database.path)
            let filter = SiteFilter(component: component, strategy: strategy, kind: kind)
            if diff.count == 2 {
                let a = try SiteQuery.run(diff[0], in: db), b = try SiteQuery.run(diff[1], in: db)
                try SiteQuery.validate(filter, runIDs: [a.runID, b.runID], optionPrefix: "--", in: db)
                let differences = SiteDiff.compare(try SiteQuery.rows(runID: a.runID, filter: filter, in: db),
                                                   try SiteQuery.rows(runID: b.runID, filter: filter, in: db))
                Console.message("sites from run \(a.runID) (A) to run \(b.runID) (B): \(differences.count) changed")
                Console.output(format.renderer.render(SiteDiff.table(differences)))
                return
            }
            let run = try SiteQuery.run(runReference, in: db)
            noteIncomplete([run])
            try SiteQuery.validate(filter, runIDs: [run.runID], optionPrefix: "--", in: db)
            let rows = try SiteQuery.rows(runID: run.runID, filter: filter, in: db)
            if tree {
                Console.output(SiteQuery.tree(rows, stacks: try SiteQuery.stacks(Set(rows.map(\.stackID)), in: db)))
            } else if format == .html {
                // A page of its own: icicle charts of the call trees, then the table.
                Console.output(SiteIcicle.page(rows, stacks: try SiteQuery.stacks(Set(rows.map(\.stackID)), in: db),
                                               runID: run.runID, table: SiteQuery.table(rows)))
            } else {
                Console.output(format.renderer.render(SiteQuery.table(rows)))
            }
        }
    }
}
