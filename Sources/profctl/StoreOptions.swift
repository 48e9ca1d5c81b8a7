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
        if let url { return try SharedStoreLink.require().openForReading(url) }
        return try ProfileStore.openForReading(path: database.path)
    }

    /// The store to change (baseline set and rm): the PostgreSQL one when --store is given,
    /// else the --db file, which must exist. Neither is created or migrated here.
    func openForWriting(_ database: DatabaseOptions) throws -> any SQLWritableStore {
        if let url { return try SharedStoreLink.require().openForWriting(url) }
        return try ProfileStore.openExistingForWriting(path: database.path)
    }

    func validate() throws {
        try StoreTarget.validate(url, flag: "--store")
    }
}
