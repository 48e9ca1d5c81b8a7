import ArgumentParser
import Profiler
import ProfilerCLI

struct Baseline: ParsableCommand, Exemplified {
    static let examples = [
        "profctl baseline set main",
        "profctl baseline set release-1.2 --run 2d0aa0d3",
        "profctl baseline list",
        "profctl baseline rm release-1.2",
        "profctl baseline set main --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Name runs as baselines for `profctl check --baseline NAME`.",
        subcommands: [Set.self, List.self, Remove.self]
    )

    struct Set: StoreCommand, Exemplified {
        static let examples = ["profctl baseline set main", "profctl baseline set main --run 2d0aa0d3"]
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Label the newest run of every scenario (or the run given) with NAME, replacing earlier ones.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var store: StoreOptions
        @Argument(help: "The label.") var name: String
        @Option(name: .customLong("run"), help: "One run id or prefix (default: the newest run of every scenario).")
        var runReference: String?

        func validate() throws {
            if let reason = BaselineResolver.reservedLabelReason(name) { throw ValidationError(reason) }
        }

        func execute() throws {
            let db = try store.openForWriting(database)
            if let reason = try BaselineResolver.runLikeLabelReason(name, in: db) {
                Console.error(reason)
                throw ExitCode(ExitCodes.usage)
            }
            let runs = try RunReport.runs(reference: runReference, scenario: nil, in: db)
            for run in runs { try Checker.requireComplete(run, as: "the run to label") }
            try db.writing { for run in runs { try Baselines.set(name, run: run, in: db) } }
            for run in runs { Console.message("\(name): \(run.scenario) run \(run.runID)") }
        }
    }

    struct List: StoreCommand, Exemplified {
        static let examples = ["profctl baseline list --format json"]
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List labels and the runs they name.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var store: StoreOptions
        @Option(help: TableFormat.help()) var format = TableFormat(.table)

        func execute() throws {
            let db = try store.open(database)
            Console.output(try format.format.render(try Baselines.list(db)))
        }
    }

    struct Remove: StoreCommand, Exemplified {
        static let examples = ["profctl baseline rm main"]
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a label (from every scenario).")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var store: StoreOptions
        @Argument(help: "The label.") var name: String

        func execute() throws {
            let db = try store.openForWriting(database)
            let removed = try db.writing { try Baselines.remove(name, in: db) }
            // A label that does not exist is a name typed wrong (or removed already): 64 with the labels there are.
            guard removed > 0 else {
                throw UnknownNameError(kind: "label", name: name, origin: "baseline rm", known: try Baselines.names(in: db))
            }
            Console.message("removed \(name) from \(removed) run(s)")
        }
    }
}
