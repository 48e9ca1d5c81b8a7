import ProfilerPrimitives

/// A view is shown by adding it as a subview: what lazy containers and
/// `ComponentComparison` do with every `View` subclass.
extension View: AttachableComponent {
    public typealias Parent = View

    /// A plain view with room for `count` subviews (see `prepareToHost`).
    public static func parent(hosting count: Int) -> View {
        let parent = View()
        parent.prepareToHost(count)
        return parent
    }

    public func attach(to parent: View) { parent.addSubview(self) }

    public func detach() { removeFromSuperview() }
}
