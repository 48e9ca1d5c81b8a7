import ArgumentParser
import Foundation
import Profiler

/// The --db option every command shares.
package struct DatabaseOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database file (default: $PROFCTL_DB, else ./\(ProfileStore.defaultPath)).", valueName: "path"))
    package var explicitPath: String?

    /// An empty --db (`--db "$UNSET"` in a script) would open SQLite's temporary database,
    /// which is deleted on close: a record would report success and keep nothing.
    package func validate() throws {
        if explicitPath?.isEmpty == true {
            throw ValidationError("--db is empty: give the database file (or leave --db out for $PROFCTL_DB, else ./\(ProfileStore.defaultPath))")
        }
    }

    /// --db, else PROFCTL_DB, else ./profile.sqlite.
    package var path: String {
        if let explicitPath { return explicitPath }
        if let fromEnvironment = ProcessInfo.processInfo.environment["PROFCTL_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return ProfileStore.defaultPath
    }
}

extension ByteMeasure: ExpressibleByArgument {}
