/// A component that joins a parent when it is shown, as a view joins its superview.
///
/// Lazy containers add a component to its parent when they realize it, and
/// `ComponentComparison` adds every eagerly built instance to one; this protocol says
/// how. The stand-in `View` conforms (a subview of a `View`), and so can a user's own
/// view type. Plain classes need not conform: `ComponentComparison` holds them without
/// a parent, and `LazyContainer`'s general methods take the `add:` closure directly.
///
/// Its metatype is `SendableMetatype`: a comparison builds parents through it from the
/// recording thread.
public protocol AttachableComponent: AnyObject, SendableMetatype {
    /// What the component is added to.
    associatedtype Parent: AnyObject
    /// A fresh parent with room for `count` more children, so that adding one allocates
    /// nothing and each child is charged only for itself.
    static func parent(hosting count: Int) -> Parent
    /// Adds the component to `parent`.
    func attach(to parent: Parent)
    /// Takes the component out of its parent again.
    func detach()
}

/// The parent of components that have none (plain classes): lazy containers keep a weak
/// reference to it, nothing is ever added to it.
public final class NoParent {
    public init() {}
}
