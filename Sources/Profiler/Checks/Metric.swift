import ProfilerModel

/// Names one metric across runs: scenario, component (empty for a strategy-level
/// figure), strategy, and what is measured.
package struct MetricKey: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    package let scenario: String
    package let component: String
    package let strategy: String
    package let name: String

    package init(scenario: String, component: String, strategy: String, name: String) {
        self.scenario = scenario
        self.component = component
        self.strategy = strategy
        self.name = name
    }

    package static func < (a: MetricKey, b: MetricKey) -> Bool {
        (a.scenario, a.component, a.strategy, a.name) < (b.scenario, b.component, b.strategy, b.name)
    }

    package var description: String {
        [scenario, component, strategy, name].filter { !$0.isEmpty }.joined(separator: " / ")
    }
}

/// One measured figure of one run. Bytes and counts are deterministic and compared
/// exactly; latencies carry their per-repeat samples for a statistical test.
package struct Metric: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Bytes or counts: one exact value.
        case exact
        /// Nanoseconds: the per-repeat medians behind `value` (their median).
        case latency(samples: [Double])
    }

    package let key: MetricKey
    package let value: Double
    package let polarity: Polarity
    package let kind: Kind
    /// Primary figures are gated against the baseline; derived ones are shown as context.
    package let role: MetricRole
    /// How far an exact figure may move between identical runs (nil for bytes: none): a
    /// change within it is not a regression. See `RunMetric.slackPerRun`.
    package let slack: Slack?

    package init(key: MetricKey, value: Double, polarity: Polarity, kind: Kind = .exact, role: MetricRole = .primary,
                slack: Slack? = nil) {
        self.key = key
        self.value = value
        self.polarity = polarity
        self.kind = kind
        self.role = role
        self.slack = slack
    }

    package var isLatency: Bool {
        if case .latency = kind { return true }
        return false
    }

    package var samples: [Double] {
        if case .latency(let samples) = kind { return samples }
        return [value]
    }
}
