/// The four ways `ComponentComparison` builds a component, each measured per instance.
public enum StandardStrategy: String, Sendable, CaseIterable {
    /// Built directly (and, when it is `AttachableComponent`, added to a parent): the baseline.
    case eager
    /// Wrapped in a `LazyContainer` that is never realized: what the wrapper alone costs.
    case lazy
    /// Wrapped in a `LazyContainer`, then realized (built and added to the parent): the
    /// component plus its wrapper.
    case lazyRealized = "lazy-realized"
    /// Taken from a cache keyed by configuration: of `instances` instances with
    /// `configurations` distinct configurations, the first instance of each configuration
    /// builds the component and stores it in the cache (a miss), every later one shares
    /// that component (a hit, costing no bytes). Each instance is charged what it costs
    /// then, so bytes per instance come to the component's cost times
    /// `configurations / instances`. Shared instances are not added to a parent (one
    /// component cannot have two); the cache's table is made before measuring, as the
    /// parent's room is, and released with the last instance of each configuration.
    case cached
}
