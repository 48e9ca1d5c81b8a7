/// The sentences a check's output uses to say how to act on an undecided or missing
/// metric. The library's own say it in API terms; a front end (the CLI) passes its own,
/// naming its flags, so that the library never advises options its user does not have.
package struct CheckAdvice: Sendable, Equatable {
    /// How to get enough repeats to test latencies, e.g. "record 5 or more repeats".
    package var moreRepeats: String
    /// How to accept metrics the run lacks, e.g. "allow missing metrics".
    package var allowMissing: String

    package init(moreRepeats: String, allowMissing: String) {
        self.moreRepeats = moreRepeats
        self.allowMissing = allowMissing
    }

    /// In the library's terms.
    package static let library = CheckAdvice(moreRepeats: "record 5 or more repeats",
                                            allowMissing: "allow missing metrics (CheckRequest.allowMissing)")
}
