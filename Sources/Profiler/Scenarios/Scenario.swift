/// Options every scenario understands, from `profctl record`.
public struct RecordOptions: Sendable, Equatable {
    /// Instances per (component, strategy); nil for the scenario's default.
    public var instances: Int?
    /// How many times the whole scenario runs within one run.
    public var repeats: Int

    public init(instances: Int? = nil, repeats: Int = 1) {
        self.instances = instances
        self.repeats = repeats
    }
}

/// What a scenario gets while it runs: where its events go and which repeat this is.
public struct ScenarioContext: Sendable {
    public let sink: any EventSink
    public let repeatIndex: Int
    public let options: RecordOptions
    /// Short human-readable progress lines (stderr in the CLI).
    public let progress: @Sendable (String) -> Void

    public init(sink: any EventSink, repeatIndex: Int, options: RecordOptions,
                progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.sink = sink
        self.repeatIndex = repeatIndex
        self.options = options
        self.progress = progress
    }

    public func probe(component: String, strategy: String) -> Probe {
        Probe(sink: sink, component: component, strategy: strategy, repeatIndex: repeatIndex)
    }
}

/// A scripted experiment: builds components under several strategies and emits the
/// lifecycle events that the reports are made of.
public protocol Scenario: Sendable {
    /// The name `profctl record` takes.
    var name: String { get }
    /// One line for `profctl scenarios`.
    var summary: String { get }
    /// The strategy that savings are measured against.
    var baselineStrategy: String { get }
    var strategies: [String] { get }
    var defaultInstances: Int { get }
    /// Runs once per repeat.
    func run(_ context: ScenarioContext) throws
}

extension Scenario {
    func description(for options: RecordOptions) -> RunDescription {
        RunDescription(scenario: name, baselineStrategy: baselineStrategy, parameters: [
            "instances": .int(options.instances ?? defaultInstances),
            "repeats": .int(options.repeats),
            "strategies": .string(strategies.joined(separator: ",")),
        ])
    }
}

/// Swallows events: for warm-up passes that must run the measured code once before
/// measuring (first use of a generic type or a static allocates once per process).
public final class DiscardingSink: EventSink {
    public init() {}
    public func record(_ event: Event) throws {}
}
