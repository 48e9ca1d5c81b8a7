/// Live bytes per strategy after each step of a run (the timeline view), in the order
/// the steps were taken: one point per (strategy, component, step), so a step taken once
/// per component (lazy-container's build: Label, then Button, ...) shows each component.
package struct TimelinePoint: Sendable, Equatable {
    package let strategy: String
    /// The step's component; empty when the step is not one component's.
    package let component: String
    /// The step as a chart labels the point: its component and name ("Label build"), or
    /// its name alone.
    package let step: String
    package let liveBytes: Double

    package init(strategy: String, component: String = "", step: String, liveBytes: Double) {
        self.strategy = strategy
        self.component = component
        self.step = component.isEmpty ? step : component + " " + step
        self.liveBytes = liveBytes
    }
}
