import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Export: StoreCommand, Exemplified {
    static let examples = [
        "profctl export --run latest --format chrome-trace -o trace.json",
        "profctl export --scenario lazy-list -o lazy-list.json   # then open it in ui.perfetto.dev",
        "profctl record lazy-container --sites --quiet && profctl export --run latest --format pprof -o sites.pb.gz   # then: go tool pprof -top sites.pb.gz",
        "profctl export --store postgres://ci@db.example/profctl --run 2d0aa0d3 -o trace.json",
    ]

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write runs in another tool's format: a Chrome trace (Perfetto UI, chrome://tracing), or a pprof profile of the allocation sites.",
        discussion: """
            One process per run, one track per strategy, a live-bytes counter per strategy \
            (a sample per step), a slice per step of each component, and an instant event per lifecycle event \
            with its component and bytes. --format pprof writes the sites of runs recorded with \
            --sites as a gzipped profile.proto (go tool pprof, speedscope): sample types \
            alloc_space (the default: bytes allocated), inuse_space, alloc_objects, inuse_objects; \
            run, component, strategy and kind as labels. Default: the newest run of every scenario (with pprof, those recorded with --sites).
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: RunSelection
    @Option(help: FormatOption<ExportFormats>.help()) var format = FormatOption<ExportFormats>(.chromeTrace)
    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of stdout.") var output: String?

    func validate() throws {
        try OutputPath.validate(output)
        if format == .pprof, store.url != nil {
            // push copies runs without their sites (docs/fleet.md), so the store has none to export.
            throw ValidationError("--format pprof reads allocation sites, which the PostgreSQL store does not hold: "
                                  + "export from the --db file the run was recorded into with --sites")
        }
    }

    func execute() throws {
        let db = try store.open(database)
        let runs = try selection.runs(in: db)
        try selection.notePassedOver(shown: runs, in: db)
        noteIncomplete(runs)
        if format == .pprof {
            try writePprof(runs, db)
            return
        }
        let trace = ChromeTrace.export(try runs.map { try TraceQuery.load($0, from: db) })
        if let output {
            try OutputPath.write(Data(trace.utf8), to: output)
            Console.message("wrote \(runs.count) run(s) to \(output)")
        } else {
            Console.output(trace)
        }
    }

    /// The selected runs' sites; by default only the selected runs recorded with --sites.
    private func writePprof(_ runs: [RunInfo], _ db: any SQLRowSource) throws {
        var ids = runs.map(\.runID)
        if selection.runReference == nil {
            ids = try ids.filter { try SiteQuery.hasSites($0, in: db) }
        }
        if ids.isEmpty, selection.runReference == nil {
            // Say so when the file has site runs, just not among the newest: naming one works.
            let newest = try SiteQuery.run(nil, in: db)
            throw NoSelectedSiteRun(newest: newest.runID, scenario: newest.scenario)
        }
        if ids.isEmpty { throw SiteError.noSiteRuns(path: db.storeName) }
        let profile = Data(Pprof.export(try ids.map { try SiteQuery.sites(runID: $0, in: db) }))
        if let output {
            try OutputPath.write(profile, to: output)
            Console.message("wrote the sites of \(ids.count) run(s) to \(output)")
        } else {
            FileHandle.standardOutput.write(profile)
        }
    }
}

/// export --format pprof without --run: none of the runs it selects (each scenario's
/// newest complete run) was recorded with --sites, though an older run was.
struct NoSelectedSiteRun: Error, CustomStringConvertible {
    let newest: String
    let scenario: String

    var description: String {
        "none of the runs selected (each scenario's newest complete run) was recorded with --sites; the newest that was is "
            + "\(scenario) run \(newest.prefix(8)): profctl export --format pprof --run \(newest.prefix(8))"
    }
}
