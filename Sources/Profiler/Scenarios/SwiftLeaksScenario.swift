/// Leaks the way Swift code really leaks, each beside its fix: a stored closure that
/// captures `self` strongly, a delegate held strongly both ways, an observer list that is
/// never pruned. Screens are opened and closed again; the leak verdicts (docs/leaks.md)
/// must flag the three leaking strategies and pass their fixed twins.
public struct SwiftLeaksScenario: Scenario {
    public let name = "swift-leaks"
    public let summary = "retain cycles through closures and delegates, an unpruned observer list, and their fixes"
    public let baselineStrategy = "weak-self-closure"
    public let strategies = Self.twins.flatMap { [$0.leaking, $0.fixed] }
    public let countParameter = "screens"
    public let parameters = [
        ParameterSpec("screens", "screens opened and closed again per strategy", .integer(1...100_000), default: .int(20)),
    ]

    /// Each leaking strategy, its fixed twin, and the component both build.
    public static let twins: [(leaking: String, fixed: String, component: String)] = [
        ("strong-self-closure", "weak-self-closure", "ticker-screen"),
        ("strong-delegate", "weak-delegate", "download-screen"),
        ("unpruned-observers", "pruned-observers", "themed-screen"),
    ]

    /// The strategies that leak by design, for the verdicts to catch: never declared as
    /// intended retention, and left out of "every scenario balances" by name.
    public static var leakingStrategies: [String] { twins.map(\.leaking) }

    public init() {}

    public func run(_ context: ScenarioContext) throws {
        let count = context.options.int("screens")
        for strategy in context.strategies {
            // Warm-up: the first use of each type and code path allocates once per process.
            try runStrategy(strategy, 1, context.discarding)
            try runStrategy(strategy, count, context)
            context.progress("\(name): \(strategy)")
        }
    }

    private func runStrategy(_ strategy: String, _ count: Int, _ context: ScenarioContext) throws {
        guard let twin = Self.twins.first(where: { $0.leaking == strategy || $0.fixed == strategy }) else {
            throw ScenarioError.unknownStrategy(strategy, scenario: name, known: strategies)
        }
        let leaks = strategy == twin.leaking
        // The hub outlives the screens, as an app's notification centre does.
        let hub = ObserverHub()
        var screens: [AnyObject] = []
        screens.reserveCapacity(count)
        func probe(_ i: Int) -> Probe { context.probe(component: twin.component, strategy: strategy).instance(i) }
        try context.step("open", strategy: strategy) {
            for i in 0..<count {
                screens.append(try probe(i).measure(.create) { () -> AnyObject in
                    switch twin.component {
                    case "ticker-screen": TickerScreen(weakSelf: !leaks)
                    case "download-screen": DownloadScreen(strongDelegate: leaks)
                    default: ThemedScreen(hub: hub, prunes: !leaks)
                    }
                })
            }
        }
        try context.step("use", strategy: strategy) { hub.post() }
        try context.step("close", strategy: strategy) {
            for i in (0..<count).reversed() {
                try probe(i).measure(.release) { _ = screens.removeLast() }
            }
        }
        try context.metric("observers_left", Double(hub.count), strategy: strategy)
    }
}
