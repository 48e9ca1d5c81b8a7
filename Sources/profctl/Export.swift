import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Export: ParsableCommand, Exemplified {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case chromeTrace = "chrome-trace"
    }

    static let examples = [
        "profctl export --run latest --format chrome-trace -o trace.json",
        "profctl export --scenario lazy-list -o lazy-list.json   # then open it in ui.perfetto.dev",
        "profctl export --store postgres://ci@db.example/profctl --run 2d0aa0d3 -o trace.json",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Write runs in another tool's format: a Chrome trace that Perfetto UI and chrome://tracing open.",
        discussion: """
            One process per run, one track per strategy, a live-bytes counter per strategy \
            (a sample per step), a slice per step, and an instant event per lifecycle event \
            with its component and bytes. Default: the newest run of every scenario.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var selection: RunSelection
    @Option(help: "chrome-trace.") var format = Format.chromeTrace
    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of stdout.") var output: String?

    func run() throws {
        try reportingStoreErrors {
            let db = try store.open(database)
            let runs = try selection.runs(in: db)
            noteIncomplete(runs)
            let trace = try ChromeTrace.export(runs, from: db)
            if let output {
                try Data(trace.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                Console.message("wrote \(runs.count) run(s) to \(output)")
            } else {
                Console.output(trace)
            }
        }
    }
}
