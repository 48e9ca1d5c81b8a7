import ArgumentParser
import Profiler
import ProfilerCLI

/// --store, for the reading commands that can read the team's PostgreSQL store instead
/// of the local --db file.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Read the PostgreSQL store at this postgres:// URL (or libpq key=value string) instead of --db.",
        valueName: "url"))
    var url: String?

    /// The store to read: the PostgreSQL one when --store is given, else the --db file.
    func open(_ database: DatabaseOptions) throws -> any SQLRowSource {
        try refuseBoth(database)
        if let url { return try SharedStoreLink.require().openForReading(url) }
        return try ProfileStore.openForReading(path: database.path)
    }

    /// The store to change (baseline set and rm): the PostgreSQL one when --store is given,
    /// else the --db file, which must exist. Neither is created or migrated here.
    func openForWriting(_ database: DatabaseOptions) throws -> any SQLWritableStore {
        try refuseBoth(database)
        if let url { return try SharedStoreLink.require().openForWriting(url) }
        return try ProfileStore.openExistingForWriting(path: database.path)
    }

    /// --db and --store name two databases; reading one would drop the other without a
    /// word (PROFCTL_DB is a default, not a choice, and gives way to --store).
    private func refuseBoth(_ database: DatabaseOptions) throws {
        guard url != nil, let path = database.explicitPath else { return }
        Console.error("--db \(path) and --store name two databases (the file and the PostgreSQL store); give one of them")
        throw ExitCode(ExitCodes.usage)
    }

    func validate() throws {
        try StoreTarget.validate(url, flag: "--store")
    }
}
