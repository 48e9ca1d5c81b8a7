import ProfilerHooks
import ProfilerModel
import ProfilerRecording

/// What `profctl record` (or a scenario file) asks of a scenario.
package struct RecordOptions: Sendable, Equatable {
    /// How many times the whole scenario runs within one run.
    package var repeats: Int
    /// The strategies to run, in any order; nil for all of the scenario's.
    package var strategies: [String]?
    /// Parameter values that replace the scenario's defaults.
    package var parameters: [String: ParameterValue]
    /// The name the run is stored under, when not the scenario's own (scenario files).
    package var runName: String?

    package init(repeats: Int = 1, strategies: [String]? = nil, parameters: [String: ParameterValue] = [:],
                runName: String? = nil) {
        self.repeats = repeats
        self.strategies = strategies
        self.parameters = parameters
        self.runName = runName
    }

    /// Sets the scenario's main count (instances, rows, items, ...) when given.
    package init(instances: Int?, repeats: Int = 1) {
        self.init(repeats: repeats, parameters: instances.map { [RecordOptions.instancesKey: .int($0)] } ?? [:])
    }

    /// Stands for the scenario's count parameter until the scenario is known.
    package static let instancesKey = "@instances"
}

/// A scripted experiment, declared in one place: its name, parameters, strategies,
/// the steps and metrics it records, and the report that reads them. Everything else
/// (`profctl scenarios`, the report's view and its stored declaration, `check`'s
/// polarities, the HTML charts, docs/schema.md) is derived from the declaration.
public protocol Scenario: Sendable {
    /// The name `profctl record` takes.
    var name: String { get }
    /// One line for `profctl scenarios`.
    var summary: String { get }
    /// The strategy that savings are measured against.
    var baselineStrategy: String { get }
    /// The strategies' names, in the order they run. With a `ScenarioStrategy` enum:
    /// `Strategy.names`, and `context.strategies(Strategy.self)` in `run`.
    var strategies: [String] { get }
    /// The parameters it takes, with defaults.
    var parameters: [ParameterSpec] { get }
    /// The parameter `--instances` sets.
    var countParameter: String { get }
    /// The named steps it records (`context.step`); its report's view may select on them.
    /// Empty: undeclared (allowed for a scenario with the default savings report).
    var steps: [String] { get }
    /// The names of the numbers it records with `context.metric`.
    var metrics: [String] { get }
    /// The report that reads its runs: the savings report unless it declares its own.
    var report: ReportDeclaration { get }
    /// What it leaves behind on purpose after its release steps; everything else it
    /// builds, it gives back (empty by default).
    var keptOnPurpose: [KeptBytes] { get }
    /// Runs once per repeat.
    func run(_ context: ScenarioContext) throws
    /// Checks parameters that are valid one by one but not together (the memory a run
    /// would hold at once, say): throws ScenarioError.invalidValue with what would fit.
    /// Nothing by default.
    func validateTogether(_ options: ResolvedOptions) throws
    /// Instances one repeat builds (create events), when known in advance: progress bars
    /// measure against it. Nil: the count parameter times the strategies, as an estimate.
    func plannedInstances(_ options: ResolvedOptions) -> Int?
}

/// A scenario's strategies as a type: a `String`-backed enum, so `run` switches over
/// them exhaustively and a name that is not one of them can never run another's code.
package protocol ScenarioStrategy: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

extension ScenarioStrategy {
    /// Every strategy's name, in declaration order: a scenario's `strategies`.
    package static var names: [String] { allCases.map(\.rawValue) }
}

extension Scenario {
    public var steps: [String] { [] }
    public var metrics: [String] { [] }
    public var report: ReportDeclaration { .savings }
    public var keptOnPurpose: [KeptBytes] { [] }
    public func plannedInstances(_ options: ResolvedOptions) -> Int? { nil }
    public func validateTogether(_ options: ResolvedOptions) throws {}

    /// Resolves options against this scenario: defaults filled in, every name and value
    /// checked. Throws with the valid choices on the first problem.
    package func resolve(_ options: RecordOptions) throws -> ResolvedOptions {
        var values: [String: ParameterValue] = [:]
        for spec in parameters { values[spec.name] = spec.defaultValue }
        for (rawName, value) in options.parameters {
            let name = rawName == RecordOptions.instancesKey ? countParameter : rawName
            guard let spec = parameters.first(where: { $0.name == name }) else {
                throw ScenarioError.unknownParameter(name, scenario: self.name, known: parameters.map(\.name))
            }
            guard let valid = spec.validate(value) else {
                throw ScenarioError.invalidValue(name, value: value.description, expected: spec.validValues)
            }
            values[name] = valid
        }
        let chosen = options.strategies ?? strategies
        // An empty choice would record a run with no events and call it complete.
        guard !chosen.isEmpty else {
            throw ScenarioError.invalidValue("strategies", value: "none",
                                             expected: "at least one of \(strategies.joined(separator: ", "))")
        }
        for strategy in chosen where !strategies.contains(strategy) {
            throw ScenarioError.unknownStrategy(strategy, scenario: name, known: strategies)
        }
        guard options.repeats >= 1 else {
            throw ScenarioError.invalidValue("repeats", value: String(options.repeats), expected: "at least 1")
        }
        // A user's scenario under a built-in's name (or one like it) would mix with its runs.
        try RunNames.requireOwn(options.runName ?? name, for: self)
        let resolved = ResolvedOptions(repeats: options.repeats, strategies: strategies.filter(chosen.contains), parameters: values,
                                       runName: options.runName ?? name, declaredSteps: steps, declaredMetrics: metrics)
        try validateTogether(resolved)
        return resolved
    }

    func description(for options: ResolvedOptions) throws -> RunDescription {
        var parameters = options.parameters
        parameters["repeats"] = .int(options.repeats)
        parameters["strategies"] = .strings(options.strategies)
        if options.runName != name { parameters["kind"] = .string(name) }
        return RunDescription(scenario: options.runName, baselineStrategy: baselineStrategy, parameters: parameters,
                              report: report.name, reportViews: [try report.repeatableView()],
                              declaration: try ScenarioDeclaration(self).storedText())
    }
}

/// Options checked against a scenario: every parameter present and valid.
public struct ResolvedOptions: Sendable, Equatable {
    package let repeats: Int
    package let strategies: [String]
    package let parameters: [String: ParameterValue]
    package let runName: String
    /// The steps and metrics the scenario declares (empty: undeclared, anything goes):
    /// recording one it does not declare throws, so its report's view cannot miss it.
    package internal(set) var declaredSteps: [String] = []
    package internal(set) var declaredMetrics: [String] = []

    public func int(_ name: String) -> Int {
        if case .int(let v) = parameters[name] { return v }
        return 0
    }

    public func string(_ name: String) -> String {
        if case .string(let v) = parameters[name] { return v }
        return ""
    }

    public func script(_ name: String) -> [String] {
        switch parameters[name] {
        case .strings(let v): v
        case .string(let v): [v]
        default: []
        }
    }
}

/// What a scenario gets while it runs: where its events go, which repeat this is,
/// its parameters and strategies.
public struct ScenarioContext: Sendable {
    public let sink: any EventSink
    package let repeatIndex: Int
    public let options: ResolvedOptions
    /// Short human-readable progress lines (stderr in the CLI).
    public let progress: @Sendable (String) -> Void

    package init(sink: any EventSink, repeatIndex: Int, options: ResolvedOptions,
                progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.sink = sink
        self.repeatIndex = repeatIndex
        self.options = options
        self.progress = progress
    }

    public var strategies: [String] { options.strategies }

    /// The strategies to run, typed. Throws for a name that is not one of `S`'s cases
    /// (resolve already refuses those, so only a scenario whose `strategies` and `S`
    /// disagree can get here).
    package func strategies<S: ScenarioStrategy>(_ type: S.Type) throws -> [S] {
        try options.strategies.map { name in
            guard let strategy = S(rawValue: name) else {
                throw ScenarioError.unknownStrategy(name, scenario: options.runName, known: S.names)
            }
            return strategy
        }
    }

    public func probe(component: String, strategy: String) -> Probe {
        Probe(sink: sink, component: component, strategy: strategy, repeatIndex: repeatIndex)
    }

    /// Runs one named step of one strategy (for one component, where the step builds or
    /// releases one); afterwards the strategy's live bytes are sampled, a point of its own.
    @discardableResult
    public func step<T>(_ name: String, strategy: String, component: String = "", _ body: () throws -> T) throws -> T {
        if !options.declaredSteps.isEmpty, !options.declaredSteps.contains(name) {
            throw ScenarioError.undeclared("step", name, scenario: options.runName, declared: options.declaredSteps)
        }
        try AllocationScope.excluded { try sink.enterStep(name) }
        let value = try body()
        try AllocationScope.excluded { try sink.sample(strategy: strategy, component: component, repeatIndex: repeatIndex) }
        return value
    }

    /// Records a number observed in the current step of a strategy.
    public func metric(_ name: String, _ value: Double, strategy: String) throws {
        if !options.declaredMetrics.isEmpty, !options.declaredMetrics.contains(name) {
            throw ScenarioError.undeclared("metric", name, scenario: options.runName, declared: options.declaredMetrics)
        }
        try AllocationScope.excluded { try sink.metric(name, value, strategy: strategy, repeatIndex: repeatIndex) }
    }

    /// The same context with events going nowhere: for warm-up passes.
    public var discarding: ScenarioContext {
        ScenarioContext(sink: DiscardingSink(), repeatIndex: repeatIndex, options: options)
    }
}
