import ProfilerModel

/// Names one metric across runs: scenario, component (empty for a strategy-level
/// figure), strategy, and what is measured.
public struct MetricKey: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let scenario: String
    public let component: String
    public let strategy: String
    public let name: String

    public init(scenario: String, component: String, strategy: String, name: String) {
        self.scenario = scenario
        self.component = component
        self.strategy = strategy
        self.name = name
    }

    public static func < (a: MetricKey, b: MetricKey) -> Bool {
        (a.scenario, a.component, a.strategy, a.name) < (b.scenario, b.component, b.strategy, b.name)
    }

    public var description: String {
        [scenario, component, strategy, name].filter { !$0.isEmpty }.joined(separator: " / ")
    }
}

/// One measured figure of one run. Bytes and counts are deterministic and compared
/// exactly; latencies carry their per-repeat samples for a statistical test.
public struct Metric: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Bytes or counts: one exact value.
        case exact
        /// Nanoseconds: the per-repeat medians behind `value` (their median).
        case latency(samples: [Double])
    }

    public let key: MetricKey
    public let value: Double
    public let polarity: Polarity
    public let kind: Kind
    /// Primary figures are gated against the baseline; derived ones are shown as context.
    public let role: MetricRole
    /// How far an exact figure may move between identical runs (0 for bytes): a change
    /// within it is not a regression. See `MetricCatalog.allocationMetrics`.
    public let slack: Double

    public init(key: MetricKey, value: Double, polarity: Polarity, kind: Kind = .exact, role: MetricRole = .primary,
                slack: Double = 0) {
        self.key = key
        self.value = value
        self.polarity = polarity
        self.kind = kind
        self.role = role
        self.slack = slack
    }

    public var isLatency: Bool {
        if case .latency = kind { return true }
        return false
    }

    public var samples: [Double] {
        if case .latency(let samples) = kind { return samples }
        return [value]
    }
}
