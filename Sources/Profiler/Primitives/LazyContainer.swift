import ProfilerRecording

/// Holds a component that is built only when first needed.
///
/// The container itself is three light stored properties: the optional component, the
/// factory closure and a weak reference to the parent. That is one small allocation
/// (48 requested bytes on 64-bit: 16 of object header, 8 + 16 + 8), against the full
/// cost of the component, which is paid only by `ensure(in:)`.
///
///     let badge = LazyContainer<Label, View> { Label(text: "LIVE") }
///     badge.ensure(in: header)        // built and added now
///     badge.remove()                  // dropped again
///
/// Worth it for rarely opened parts of long-lived screens; not for reused list cells.
public final class LazyContainer<Component: AnyObject, Parent: AnyObject> {
    public private(set) var component: Component?
    private let factory: () -> Component
    package private(set) weak var parent: Parent?

    public init(_ factory: @escaping () -> Component) {
        self.factory = factory
    }

    /// Builds the container under measurement and emits a `create` event for it.
    public static func make(probe: Probe, _ factory: @escaping () -> Component) throws -> LazyContainer {
        try probe.measure(.create) { LazyContainer(factory) }
    }

    public var isRealized: Bool { component != nil }

    /// Builds the component if needed and adds it to `parent` with `add`; `onFirstAdd`
    /// runs once per building, after the first addition. Returns the component.
    @discardableResult
    public func ensure(in parent: Parent, add: (Component, Parent) -> Void,
                       onFirstAdd: (Component) -> Void = { _ in }) -> Component {
        if let component {
            if self.parent !== parent {
                add(component, parent)
                self.parent = parent
            }
            return component
        }
        let built = factory()
        component = built
        add(built, parent)
        self.parent = parent
        onFirstAdd(built)
        return built
    }

    /// `ensure(in:add:onFirstAdd:)` under measurement: emits a `realize` event with the
    /// bytes building and adding the component cost (nothing when already realized).
    @discardableResult
    public func ensure(in parent: Parent, probe: Probe, add: (Component, Parent) -> Void,
                       onFirstAdd: (Component) -> Void = { _ in }) throws -> Component {
        try probe.measure(.realize) { ensure(in: parent, add: add, onFirstAdd: onFirstAdd) }
    }

    /// Detaches the component with `detach` (when given) and drops it.
    public func remove(detach: ((Component) -> Void)? = nil) {
        guard let component else { return }
        detach?(component)
        self.component = nil
        parent = nil
    }

    /// `remove(detach:)` under measurement: emits a `release` event.
    public func remove(probe: Probe, detach: ((Component) -> Void)? = nil) throws {
        try probe.measure(.release) { remove(detach: detach) }
    }
}

// Conveniences for views (and any other AttachableComponent, a user's own view type
// included): LazyContainer+AttachableComponent.swift.
