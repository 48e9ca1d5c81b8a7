import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Report: StoreCommand, Exemplified {
    static let examples = [
        "profctl report",
        "profctl report --scenario image-cache --format json",
        "profctl report --format html -o report.html",
        "profctl report --run 2d0aa0d3 --format csv",
        "profctl report --format markdown --bytes usable >> $GITHUB_STEP_SUMMARY",
        "profctl report --store postgres://ci@db.example/profctl --scenario image-cache",
    ]

    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the report that fits each scenario: the newest run of each, or the runs you name.",
        discussion: """
            lazy-container and live-room: bytes per instance, saved bytes and savings % \
            against the baseline (negative where a strategy costs more), break-even \
            realization rate; image-cache: hits, misses, live and retained bytes; lazy-list: \
            rows created and realized, peak and remaining bytes; composite-cell: bytes and \
            latency per phase; identity: elements created, released, states reset. Every \
            column is derived from recorded events (see docs/schema.md for each view).
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var store: StoreOptions

    @OptionGroup var selection: RunSelection

    @Option(help: TableFormat.help("tables and charts in one self-contained page"))
    var format = TableFormat(.table)

    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of stdout.")
    var output: String?

    @Option(help: "For savings reports: requested (what the code asked malloc for) or usable (what malloc handed back).")
    var bytes = ByteMeasure.requested

    func validate() throws {
        try OutputPath.validate(output)
    }

    func execute() throws {
        let db = try store.open(database)
        let runs = try selection.runs(in: db)
        try selection.notePassedOver(shown: runs, in: db)
        noteIncomplete(runs)
        let reports = try runs.map { try RunReport.load($0, measure: bytes, catalog: BuiltInScenarios.reportCatalog(in: db), from: db) }
        // --bytes usable changes savings reports only: asked of none, it would be dropped silently.
        if bytes == .usable, !reports.isEmpty, reports.allSatisfy({ $0.measure == nil }) {
            let shown = reports.map(\.run.scenario).joined(separator: ", ")
            Console.error("--bytes usable applies to savings reports (bytes per instance: lazy-container and those like it); the report of \(shown) has no usable bytes to show: leave out --bytes")
            throw ExitCode(ExitCodes.usage)
        }
        let text: String
        if format == .html {
            let sections = try reports.map { report in
                var section = HTMLReport.Section(report: report, timeline: try TimelineQuery.load(report.run, from: db))
                // The shared store (--store) has no size-class view yet, nor does a file from
                // before schema version 8 (reading never migrates): no charts there.
                if try db.hasRelation("size_classes") {
                    section.sizeClasses = try SizeClassQuery.load(report.run, from: db)
                }
                // Sites live in the file only (docs/fleet.md): the store's runs have none, nor
                // does a file from before schema version 7 (no site tables).
                if try db.hasRelation("site_runs"), try SiteQuery.hasSites(report.run.runID, in: db) {
                    let rows = try SiteQuery.rows(runID: report.run.runID, in: db)
                    section.siteCharts = SiteIcicle.charts(rows, stacks: try SiteQuery.stacks(Set(rows.map(\.stackID)), in: db))
                }
                // A cache run's curves (profctl whatif): the file's version 13, the store's 12.
                if try db.hasRelation("cache_trace") {
                    section.whatIfCharts = try WhatIf.reportCharts(report.run, in: db)
                }
                // Which Swift types fill the bytes (record --types), or a note on how to get them.
                let run = report.run
                section.types = try TypeQuery.forReport(report, in: db)
                    .map { .recorded($0, everyType: "profctl types --run \(run.runID)") }
                    ?? .notRecorded(howToRecord: "profctl record \(run.scenario) --types")
                return section
            }
            text = HTMLReport.render(sections, generatedAt: Date().formatted(.iso8601))
        } else {
            text = try ReportPrinter.render(reports, format: format.format)
        }
        if let output {
            try OutputPath.write(Data(text.utf8), to: output)
            Console.message("wrote \(reports.count) report(s) to \(output)")
        } else {
            Console.output(text)
        }
    }
}
