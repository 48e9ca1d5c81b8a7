/// Live bytes per strategy after each step of a run (the timeline view), in the order
/// the steps were taken.
public struct TimelinePoint: Sendable, Equatable {
    public let strategy: String
    public let step: String
    public let liveBytes: Double

    package init(strategy: String, step: String, liveBytes: Double) {
        self.strategy = strategy
        self.step = step
        self.liveBytes = liveBytes
    }
}
