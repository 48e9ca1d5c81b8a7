import ProfilerModel

/// A scenario whose strategies are caches: each strategy's events form a request trace
/// (`CacheTraceQuery`), and `cachePolicies` says which replayed policy each strategy is,
/// so `profctl whatif --check-replay` can reproduce the run from its trace.
package protocol CacheTraceScenario: Scenario {
    /// Strategy name -> the policy that replays it (at no capacity: these keep what their
    /// users hold, or everything, or nothing).
    var cachePolicies: [String: CachePolicy] { get }
}
