import ProfilerPrimitives
import ProfilerRecording
import ProfilerScenarios

/// How one component of a `ComponentComparison` is built, attached and measured under
/// each standard strategy: the code a hand-written scenario (LazyContainerScenario)
/// spells out, written once. Every instance is measured on its own (`create`, `realize`
/// and `release` events), so bytes per instance are exact.
///
/// A component is a class or any value (a struct, an enum, a collection): `eager` and
/// `cached` hold it as it is, so a value costs what building it allocates and keeps (an
/// array's storage), with no wrapper. A lazy container holds a class, so `lazy` is given
/// by whoever knows which (`lazily`, with the class itself or a value in a `ValueBox`).
struct ComponentMeasurement<Component, Parent: AnyObject> {
    let component: String
    /// The user's factory. It returns the component from a closure call, so what building
    /// it allocates escapes: the optimizer cannot delete it.
    let make: () -> Component
    let makeParent: (Int) -> Parent
    let attach: (Component, Parent) -> Void
    let detach: (Component) -> Void
    /// The lazy strategies: `count` containers, realized (built and attached) or not.
    let lazy: (_ count: Int, _ realized: Bool, Parent, Probe, ScenarioContext) throws -> Void

    /// One measured pass over `count` instances of one strategy, with a `build` and a
    /// `release` step.
    func run(_ strategy: StandardStrategy, count: Int, configurations: Int, _ context: ScenarioContext) throws {
        let probe = context.probe(component: component, strategy: strategy.rawValue)
        // The parent has room for every child up front, and the weak reference a lazy
        // container keeps to it has its side table already: adding allocates nothing.
        let parent = makeParent(count)
        weak let formsSideTable = parent
        _ = formsSideTable
        switch strategy {
        case .eager: try eager(count, parent, probe, context)
        case .lazy: try lazy(count, false, parent, probe, context)
        case .lazyRealized: try lazy(count, true, parent, probe, context)
        case .cached: try cached(count, configurations: max(1, min(configurations, count)), probe, context)
        }
    }

    private func eager(_ count: Int, _ parent: Parent, _ probe: Probe, _ context: ScenarioContext) throws {
        var instances: [Component] = []
        instances.reserveCapacity(count)
        try context.step("build", strategy: probe.strategy, component: probe.component) {
            for i in 0..<count {
                instances.append(try probe.instance(i).measure(.create) {
                    let instance = make()
                    attach(instance, parent)
                    return instance
                })
            }
        }
        try context.step("release", strategy: probe.strategy, component: probe.component) {
            for i in (0..<count).reversed() {
                try probe.instance(i).measure(.release) { detach(instances.removeLast()) }
            }
        }
    }

    /// The lazy strategies for a component a lazy container can hold (a class). `make` is
    /// handed to every container as it is: wrapping it in another closure here would give
    /// each container a closure context of its own.
    static func lazily<Held: AnyObject>(_ count: Int, realized: Bool, _ parent: Parent, _ probe: Probe, _ context: ScenarioContext,
                                        make: @escaping () -> Held, attach: (Held, Parent) -> Void,
                                        detach: @escaping (Held) -> Void) throws {
        var containers: [LazyContainer<Held, Parent>] = []
        containers.reserveCapacity(count)
        try context.step("build", strategy: probe.strategy, component: probe.component) {
            for i in 0..<count {
                let container = try LazyContainer<Held, Parent>.make(probe: probe.instance(i), make)
                if realized { try container.ensure(in: parent, probe: probe.instance(i), add: attach) }
                containers.append(container)
            }
        }
        try context.step("release", strategy: probe.strategy, component: probe.component) {
            for i in (0..<count).reversed() {
                if let container = containers.last, container.isRealized {
                    try container.remove(probe: probe.instance(i), detach: detach)
                }
                try probe.instance(i).measure(.release) { _ = containers.removeLast() }
            }
        }
    }

    private func cached(_ count: Int, configurations: Int, _ probe: Probe, _ context: ScenarioContext) throws {
        // The cache's table, one slot per configuration, made before measuring.
        var cache = [Component?](repeating: nil, count: configurations)
        var instances: [Component] = []
        instances.reserveCapacity(count)
        try context.step("build", strategy: probe.strategy, component: probe.component) {
            for i in 0..<count {
                instances.append(try probe.instance(i).measure(.create) {
                    if let shared = cache[i % configurations] { return shared }
                    let built = make()
                    cache[i % configurations] = built
                    return built
                })
            }
        }
        try context.step("release", strategy: probe.strategy, component: probe.component) {
            // In reverse, the first instance of a configuration is its last user: it
            // empties the cache's slot, which frees the shared component.
            for i in (0..<count).reversed() {
                try probe.instance(i).measure(.release) {
                    instances.removeLast()
                    if i < configurations { cache[i] = nil }
                }
            }
        }
    }
}

/// What a lazy container holds of a value component: the value itself, in one object (a
/// lazy container keeps a class reference). `lazy-realized` of a value therefore costs the
/// container, this box (16 bytes of header and the value's own size) and the value's storage.
final class ValueBox<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
