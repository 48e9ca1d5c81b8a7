/// Bytes a scenario leaves behind on purpose once its release steps have run, declared so
/// that a check that everything built was given back (the conservation test, and the
/// query in docs/schema.md) can tell them from a leak.
///
/// Everything else balances per component and strategy: the bytes its `create`,
/// `realize`, `hit` and `miss` events took equal the bytes its `release` and `evict`
/// events gave back.
public struct KeptBytes: Sendable, Equatable, Codable {
    /// Stored by its raw value in a run's declaration (`run_declarations`).
    public enum Kind: String, Sendable, Equatable, Codable {
        /// Every instance keeps what it took: nothing is given back while the scenario
        /// runs (a strong cache's images, held for the life of the cache).
        case everything
        /// A one-time cost per process: bytes left behind only by the first instance
        /// built and the first instance released, the ones that take a code path first
        /// (a static built on first use, a template read once and kept for later
        /// instances, runtime data made on the first deinit of a type). Every other
        /// instance balances, and nothing is given back that was not taken.
        case oneTimePerProcess = "one-time-per-process"
    }

    /// The component it applies to; nil for every component of the strategy.
    package let component: String?
    package let strategy: String
    package let kind: Kind
    /// Why, in a few words, for people reading a conservation report.
    package let reason: String

    public init(component: String? = nil, strategy: String, _ kind: Kind, because reason: String) {
        self.component = component
        self.strategy = strategy
        self.kind = kind
        self.reason = reason
    }

    /// Whether this declaration covers a component of a strategy.
    package func covers(component: String, strategy: String) -> Bool {
        self.strategy == strategy && (self.component == nil || self.component == component)
    }
}
