internal import ProfilerCatalog
import ProfilerRecording

/// Leaks the way Swift code really leaks, each beside its fix: a stored closure that
/// captures `self` strongly, a delegate held strongly both ways, an observer list that is
/// never pruned. Screens are opened and closed again; the leak verdicts (docs/leaks.md)
/// must flag the three leaking strategies and pass their fixed twins.
package struct SwiftLeaksScenario: Scenario {
    package let name = "swift-leaks"
    package let summary = "retain cycles through closures and delegates, an unpruned observer list, and their fixes"
    /// Each leak the way Swift code really leaks it, and its fix.
    package enum Strategy: String, ScenarioStrategy {
        case strongSelfClosure = "strong-self-closure", weakSelfClosure = "weak-self-closure"
        case strongDelegate = "strong-delegate", weakDelegate = "weak-delegate"
        case unprunedObservers = "unpruned-observers", prunedObservers = "pruned-observers"

        /// The screen this strategy opens and closes.
        var component: String {
            switch self {
            case .strongSelfClosure, .weakSelfClosure: "ticker-screen"
            case .strongDelegate, .weakDelegate: "download-screen"
            case .unprunedObservers, .prunedObservers: "themed-screen"
            }
        }

        /// Whether this is the leaking one of its twins.
        var leaks: Bool {
            switch self {
            case .strongSelfClosure, .strongDelegate, .unprunedObservers: true
            case .weakSelfClosure, .weakDelegate, .prunedObservers: false
            }
        }
    }

    package let baselineStrategy = Strategy.weakSelfClosure.rawValue
    package let strategies = Strategy.names
    package let steps = ["open", "use", "close"]
    package let metrics = ["observers_left"]
    package let countParameter = "screens"
    package let parameters = [
        ParameterSpec("screens", "screens opened and closed again per strategy", .integer(1...100_000), default: .int(20)),
    ]

    /// Each leaking strategy, its fixed twin, and the component both build.
    package static let twins: [(leaking: String, fixed: String, component: String)] = [
        (Strategy.strongSelfClosure, Strategy.weakSelfClosure), (Strategy.strongDelegate, Strategy.weakDelegate),
        (Strategy.unprunedObservers, Strategy.prunedObservers),
    ].map { ($0.rawValue, $1.rawValue, $0.component) }

    /// The strategies that leak by design, for the verdicts to catch: never declared as
    /// intended retention, and left out of "every scenario balances" by name.
    package static var leakingStrategies: [String] { Strategy.allCases.filter(\.leaks).map(\.rawValue) }

    package init() {}

    package func run(_ context: ScenarioContext) throws {
        let count = context.options.int("screens")
        for strategy in try context.strategies(Strategy.self) {
            // Warm-up: the first use of each type and code path allocates once per process.
            try runStrategy(strategy, 1, context.discarding)
            try runStrategy(strategy, count, context)
            context.progress("\(name): \(strategy.rawValue)")
        }
    }

    private func runStrategy(_ typed: Strategy, _ count: Int, _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        let leaks = typed.leaks
        // The hub outlives the screens, as an app's notification centre does.
        let hub = ObserverHub()
        var screens: [AnyObject] = []
        screens.reserveCapacity(count)
        func probe(_ i: Int) -> Probe { context.probe(component: typed.component, strategy: strategy).instance(i) }
        try context.step("open", strategy: strategy) {
            for i in 0..<count {
                screens.append(try probe(i).measure(.create) { () -> AnyObject in
                    switch typed {
                    case .strongSelfClosure, .weakSelfClosure: TickerScreen(weakSelf: !leaks)
                    case .strongDelegate, .weakDelegate: DownloadScreen(strongDelegate: leaks)
                    case .unprunedObservers, .prunedObservers: ThemedScreen(hub: hub, prunes: !leaks)
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
