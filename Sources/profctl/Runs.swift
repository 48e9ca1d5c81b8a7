import ArgumentParser
import Profiler
import ProfilerCLI

struct Runs: StoreCommand, Exemplified {
    static let examples = [
        "profctl runs",
        "profctl runs --limit 5 --format json",
        "profctl runs --store postgres://ci@db.example/profctl",
    ]

    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List recorded runs, newest first."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var store: StoreOptions

    // Unconditional: `--limit -1` reaches validate() and its message, instead of being
    // taken for an option.
    @Option(parsing: .unconditional, help: "At most this many runs (1 or more).")
    var limit = 20

    @Option(help: TableFormat.help())
    var format = TableFormat(.table)

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
    }

    func execute() throws {
        let db = try store.open(database)
        let runs = try RunQueries.list(db, limit: limit)
        let table = ResultTable(
            columns: ["run_id", "scenario", "status", "started_at", "build", "git_commit", "parameters"],
            rows: runs.map { r in
                [.text(r.runID), .text(r.scenario), .text(r.status), .text(r.startedAt),
                 .text(r.buildConfiguration), SQLValue(r.gitCommit.map { String($0.prefix(12)) }), .text(r.parameters)]
            })
        Console.output(try format.format.render(table))
    }
}
