/// `profctl whatif` was pointed at a run (or a database) with no cache lookups to replay.
package struct NoCacheLookupsError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The run named, or nil when no run was named and none has lookups.
    package let runID: String?
    /// Runs that have lookups (id and scenario), newest first.
    package let runsWithLookups: [String]

    package init(runID: String?, runsWithLookups: [String]) {
        self.runID = runID
        self.runsWithLookups = runsWithLookups
    }

    package var description: String {
        let what = runID.map { "run \($0) has no cache lookups (hit or miss events) to replay" }
            ?? "no run in the database has cache lookups (hit or miss events) to replay"
        let choices = runsWithLookups.isEmpty
            ? "record one with: profctl record image-cache (--set requests=100000 for a long Zipf trace)"
            : "runs with lookups: " + runsWithLookups.joined(separator: ", ")
        return "\(what); \(choices)"
    }
}
