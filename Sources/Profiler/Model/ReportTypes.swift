/// What a run's section of the HTML report can say about its Swift types (`record --types`).
/// The commands it shows are the caller's: the library names no command-line flags.
package enum ReportTypes: Sendable, Equatable {
    /// The run's rows of the `types` view, in the order the report shows their groups, and
    /// the command that lists every one of them.
    case recorded([TypeRow], everyType: String)
    /// The run was recorded without types, and the command that records a run with them.
    case notRecorded(howToRecord: String)
}
