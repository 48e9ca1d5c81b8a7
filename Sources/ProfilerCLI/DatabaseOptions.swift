import ArgumentParser
import Foundation
import Profiler

/// The --db option every command shares.
public struct DatabaseOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database file (default: $PROFCTL_DB, else ./\(ProfileStore.defaultPath)).", valueName: "path"))
    public var explicitPath: String?

    /// --db, else PROFCTL_DB, else ./profile.sqlite.
    public var path: String {
        if let explicitPath { return explicitPath }
        if let fromEnvironment = ProcessInfo.processInfo.environment["PROFCTL_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return ProfileStore.defaultPath
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension ByteMeasure: ExpressibleByArgument {}
