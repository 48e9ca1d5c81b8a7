internal import ProfilerCatalog
import ProfilerPrimitives

/// Seed experiment 1: Label, Button and ImageView built directly (`eager`), wrapped in
/// a lazy container that is never realized (`lazy`), and wrapped then realized
/// (`lazy-realized`). Each instance is measured on its own, so bytes per instance are
/// exact, and released again under measurement.
package struct LazyContainerScenario: Scenario {
    package let name = "lazy-container"
    package let summary = "Label, Button, ImageView: eager vs lazy container vs lazy container realized (seed 1)"
    /// Built directly, wrapped and never realized, wrapped and realized.
    package enum Strategy: String, ScenarioStrategy {
        case eager, lazy
        case lazyRealized = "lazy-realized"
    }

    package let baselineStrategy = Strategy.eager.rawValue
    package let strategies = Strategy.names
    package let steps = ["build", "release"]
    package let countParameter = "instances"
    package let parameters = [
        ParameterSpec("instances", "instances per component and strategy", .integer(1...1_000_000), default: .int(1000)),
    ]

    package init() {}

    package func run(_ context: ScenarioContext) throws {
        let count = context.options.int("instances")
        // Non-capturing factories: a capture would add a closure context to every container.
        try measure("Label", count, context) { Label(text: "Hello, profctl") }
        try measure("Button", count, context) { Button(title: "Send") }
        try measure("ImageView", count, context) { ImageView(image: Image.sampleIcon) }
    }

    /// Three components, each built `instances` times per strategy.
    package func plannedInstances(_ options: ResolvedOptions) -> Int? {
        3 * options.int("instances") * options.strategies.count
    }

    private func measure<C: View>(_ component: String, _ count: Int, _ context: ScenarioContext,
                                  _ make: @escaping () -> C) throws {
        for strategy in try context.strategies(Strategy.self) {
            // Warm-up: the first use of a generic type or a static allocates once per process.
            try run(strategy, component, 1, context.discarding, make)
            try run(strategy, component, count, context, make)
            context.progress("\(name): \(component) \(strategy.rawValue): \(count) instances")
        }
    }

    private func run<C: View>(_ typed: Strategy, _ component: String, _ count: Int,
                              _ context: ScenarioContext, _ make: @escaping () -> C) throws {
        let strategy = typed.rawValue
        let probe = context.probe(component: component, strategy: strategy)
        // The parent has room for every child up front, so adding one allocates nothing
        // and each instance is charged only for itself.
        let parent = View()
        parent.prepareToHost(count)
        switch typed {
        case .eager:
            var views: [C] = []
            views.reserveCapacity(count)
            try context.step("build", strategy: strategy, component: component) {
                for i in 0..<count {
                    views.append(try probe.instance(i).measure(.create) {
                        let view = make()
                        parent.addSubview(view)
                        return view
                    })
                }
            }
            try context.step("release", strategy: strategy, component: component) {
                for i in (0..<count).reversed() {
                    try probe.instance(i).measure(.release) {
                        let view = views.removeLast()
                        view.removeFromSuperview()
                    }
                }
            }
        case .lazy, .lazyRealized:
            var containers: [LazyContainer<C, View>] = []
            containers.reserveCapacity(count)
            try context.step("build", strategy: strategy, component: component) {
                for i in 0..<count {
                    let container = try LazyContainer<C, View>.make(probe: probe.instance(i), make)
                    if typed == .lazyRealized {
                        try container.ensure(in: parent, probe: probe.instance(i))
                    }
                    containers.append(container)
                }
            }
            try context.step("release", strategy: strategy, component: component) {
                for i in (0..<count).reversed() {
                    if let container = containers.last, container.isRealized {
                        try container.remove(probe: probe.instance(i))
                    }
                    try probe.instance(i).measure(.release) { _ = containers.removeLast() }
                }
            }
        }
    }
}
