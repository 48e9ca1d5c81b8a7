import ProfilerRecording

// Conveniences for any `AttachableComponent`: a `View` subclass, or a user's own view
// type. The container adds the component to its parent, and takes it out again, the way
// the component says. Like the View conveniences in LazyContainer.swift they pass no
// closure literals over Component (Swift 6.3's cross-module optimizer crashes
// deserializing such closure types in a class-constrained extension), but static
// functions.
extension LazyContainer where Component: AttachableComponent, Parent == Component.Parent {
    /// Builds the component if needed and attaches it to `parent`.
    @discardableResult
    public func ensure(in parent: Parent) -> Component {
        ensure(in: parent, add: Self.attach)
    }

    /// `ensure(in:)` under measurement: a `realize` event.
    @discardableResult
    public func ensure(in parent: Parent, probe: Probe) throws -> Component {
        try ensure(in: parent, probe: probe, add: Self.attach)
    }

    /// Detaches the component from its parent and drops it.
    public func remove() { remove(detach: Self.detach) }

    /// `remove()` under measurement: a `release` event.
    public func remove(probe: Probe) throws { try remove(probe: probe, detach: Self.detach) }

    private static func attach(_ component: Component, to parent: Parent) { component.attach(to: parent) }

    private static func detach(_ component: Component) { component.detach() }
}
