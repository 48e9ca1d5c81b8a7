import ProfilerScenarios

/// Compares a user's own components under the standard strategies (`eager`, `lazy`,
/// `lazy-realized`, `cached`: see `StandardStrategy`) with everything a hand-written
/// scenario spells out built in: a warm-up pass before each measured one, each
/// instance measured on its own, release under measurement, a count parameter
/// (`instances`, what `--instances` sets) with a default, progress lines, and the
/// savings report against `eager`.
///
///     ProfilerMain.run(scenarios: [
///         ComponentComparison(name: "profile", summary: "avatar and card, four ways", components: [
///             .component("Avatar") { Avatar(initials: "PD") },
///             .component("ProfileCard") { ProfileCard() },
///         ]),
///     ])
///
/// Each instance costs exactly what LazyContainerScenario measures for the same
/// component and strategy.
public struct ComponentComparison: Scenario {
    public let name: String
    public let summary: String
    package let components: [ComparedComponent]
    public let baselineStrategy = StandardStrategy.eager.rawValue
    public let strategies: [String]
    public let countParameter = "instances"
    public let parameters: [ParameterSpec]

    /// - Parameters:
    ///   - strategies: the strategies it offers (`--strategies` picks among them); all four
    ///     unless given. `eager`, the baseline, is always among them.
    ///   - instances: how many instances of each component each strategy builds, unless
    ///     `--instances` says otherwise.
    ///   - configurations: how many distinct configurations those instances have: what
    ///     `cached` builds once each and shares (`--set configurations=N`).
    public init(name: String, summary: String, components: [ComparedComponent],
                strategies: [StandardStrategy] = StandardStrategy.allCases, instances: Int = 1000, configurations: Int = 10) {
        self.name = name
        self.summary = summary
        self.components = components
        let offered = strategies.contains(.eager) ? strategies : [.eager] + strategies
        self.strategies = StandardStrategy.allCases.filter(offered.contains).map(\.rawValue)
        parameters = [
            ParameterSpec("instances", "instances per component and strategy", .integer(1...1_000_000),
                          default: .int(min(max(instances, 1), 1_000_000))),
            ParameterSpec("configurations", "distinct configurations among them: what cached builds once each and shares",
                          .integer(1...1_000_000), default: .int(min(max(configurations, 1), 1_000_000))),
        ]
    }

    public func run(_ context: ScenarioContext) throws {
        // A programming mistake in the comparison, not an option: found before measuring.
        guard !components.isEmpty else {
            throw ScenarioError.invalidOption("\(name) compares no components: give it at least one .component(\"Name\") { ... }")
        }
        let names = components.map(\.name)
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw ScenarioError.invalidOption("\(name) names two components '\(repeated)': their figures would be mixed; give each its own name")
        }
        let count = context.options.int("instances")
        let configurations = context.options.int("configurations")
        // Resolving the options already refused names that are not strategies; a name
        // that got past that still never runs another strategy's code.
        let chosen = try context.strategies.map { name in
            guard let strategy = StandardStrategy(rawValue: name), strategies.contains(name) else {
                throw ScenarioError.unknownStrategy(name, scenario: self.name, known: strategies)
            }
            return strategy
        }
        for component in components {
            for strategy in chosen {
                // Warm-up: the first use of a generic type or a static allocates once per process.
                try component.measure(strategy, 1, configurations, context.discarding)
                try component.measure(strategy, count, configurations, context)
                context.progress("\(name): \(component.name) \(strategy.rawValue): \(count) instances")
            }
        }
    }

    /// Every component, built `instances` times per strategy.
    public func plannedInstances(_ options: ResolvedOptions) -> Int? {
        components.count * options.int("instances") * options.strategies.count
    }
}
