import ProfilerPrimitives
import ProfilerScenarios

/// One of the user's components in a `ComponentComparison`: a name for the reports and a
/// factory that builds one instance.
///
///     .component("Avatar") { Avatar(initials: "PD") }
///
/// Any class or value works. An `AttachableComponent` one (every `View`, or a user's own view type that
/// conforms) is added to a parent when built eagerly or realized, as a view is shown;
/// any other class is only held. Give factories that capture nothing where you can: a
/// lazy container stores the factory, and a captured value is shared by all containers
/// (retained, not copied), so it does not change their size, but it stays alive with them.
public struct ComparedComponent: Sendable {
    /// The component's name in the database and the reports.
    package let name: String
    let measure: @Sendable (StandardStrategy, _ count: Int, _ configurations: Int, ScenarioContext) throws -> Void

    /// A component that is added to a parent as it is shown.
    public static func component<C: AttachableComponent>(_ name: String, _ make: @escaping @Sendable () -> C) -> ComparedComponent {
        ComparedComponent(name: name) { strategy, count, configurations, context in
            let attach: (C, C.Parent) -> Void = { child, parent in child.attach(to: parent) }
            let detach: (C) -> Void = { $0.detach() }
            let measurement = ComponentMeasurement<C, C.Parent>(
                component: name, make: make, makeParent: C.parent(hosting:), attach: attach, detach: detach,
                lazy: { count, realized, parent, probe, context in
                    try ComponentMeasurement<C, C.Parent>.lazily(count, realized: realized, parent, probe, context,
                                                                 make: make, attach: attach, detach: detach)
                })
            try measurement.run(strategy, count: count, configurations: configurations, context)
        }
    }

    /// A plain object, held by whoever built it (no parent).
    public static func component<C: AnyObject>(_ name: String, _ make: @escaping @Sendable () -> C) -> ComparedComponent {
        ComparedComponent(name: name) { strategy, count, configurations, context in
            let measurement = ComponentMeasurement<C, NoParent>(
                component: name, make: make, makeParent: { _ in NoParent() }, attach: { _, _ in }, detach: { _ in },
                lazy: { count, realized, parent, probe, context in
                    try ComponentMeasurement<C, NoParent>.lazily(count, realized: realized, parent, probe, context,
                                                                 make: make, attach: { _, _ in }, detach: { _ in })
                })
            try measurement.run(strategy, count: count, configurations: configurations, context)
        }
    }

    /// Any value (a struct, an enum, a collection such as `Array`, `Dictionary` or a
    /// `Deque`), measured as what building it allocates and keeps: `eager` and `cached`
    /// hold the value itself, so no wrapper's bytes are counted (an `[Int]` of N elements
    /// costs its storage, 32 + 8 N requested bytes). A lazy container holds a class, so
    /// under `lazy-realized` the value is kept in one box object (`ValueBox`: 16 bytes
    /// plus the value's own size) beside the container.
    public static func component<V>(_ name: String, _ make: @escaping @Sendable () -> V) -> ComparedComponent {
        ComparedComponent(name: name) { strategy, count, configurations, context in
            // One closure for every container, made before anything is measured.
            let boxed: () -> ValueBox<V> = { ValueBox(make()) }
            let measurement = ComponentMeasurement<V, NoParent>(
                component: name, make: make, makeParent: { _ in NoParent() }, attach: { _, _ in }, detach: { _ in },
                lazy: { count, realized, parent, probe, context in
                    try ComponentMeasurement<V, NoParent>.lazily(count, realized: realized, parent, probe, context,
                                                                 make: boxed, attach: { _, _ in }, detach: { _ in })
                })
            try measurement.run(strategy, count: count, configurations: configurations, context)
        }
    }

    private init(name: String,
                 measure: @escaping @Sendable (StandardStrategy, Int, Int, ScenarioContext) throws -> Void) {
        self.name = name
        self.measure = measure
    }
}
