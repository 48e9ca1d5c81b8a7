import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Push: StoreCommand, Exemplified {
    static let examples = [
        "profctl push --to postgres://ci@db.example/profctl",
        "PROFCTL_STORE=postgres://ci@db.example/profctl profctl push --db ci.sqlite",
    ]

    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Copy finished runs from the local database into the team's PostgreSQL store.",
        discussion: """
            Runs are keyed by their UUID: a run already in the store is skipped, so pushing \
            twice adds nothing and many machines can push at once. Each run is copied in one \
            transaction (with its events, rollups, steps, samples, metrics, lifetimes, \
            declaration and the object types of --types; not yet its allocation sites), so a \
            half-pushed run is never visible. Baselines follow their run unless the store \
            already has one by that name. Aborted and running runs stay local unless \
            --include-incomplete. The local file is only read. The store's schema is created \
            or migrated on first use; a database of another application is refused. \
            Exit codes: 20 unreachable, 21 login refused, 22 not a profctl store, 23 write \
            refused, 8 store schema newer than this profctl.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("to"), help: ArgumentHelp(
        "The PostgreSQL store: a postgres:// URL or libpq key=value string (default: $PROFCTL_STORE, else libpq's PG* variables).",
        valueName: "url"))
    var target: String?

    @Flag(help: "Also push aborted runs and runs still recording (a pushed run is never updated later).")
    var includeIncomplete = false

    @Flag(help: "No line per run.")
    var quiet = false

    func validate() throws {
        try StoreTarget.validate(target, flag: "--to")
    }

    func execute() throws {
        let summary = try SharedStoreLink.require().push(from: database.path, to: target, includeIncomplete: includeIncomplete) { line in
            if !quiet { Console.message(line) }
        }
        Console.message(summary)
    }
}
