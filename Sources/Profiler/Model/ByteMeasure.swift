/// Which bytes a report counts.
package enum ByteMeasure: String, Sendable, CaseIterable {
    /// What the code asked malloc for.
    case requested
    /// What malloc handed back (rounded up to its size classes).
    case usable

    /// The view holding savings in this measure.
    package var view: String { self == .requested ? "savings" : "savings_usable" }
}
