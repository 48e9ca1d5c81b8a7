/// Stands for UIView: geometry, appearance, a backing layer and the view hierarchy.
open class View {
    /// Every UIView owns a CALayer.
    public let layer = Layer()
    public var frame: Rect {
        didSet { layer.bounds = Rect(origin: .zero, size: frame.size) }
    }
    public var backgroundColor: Color?
    public var tintColor: Color?
    public var alpha = 1.0
    public var isHidden = false
    public var clipsToBounds = false
    public var isUserInteractionEnabled = true
    public var tag = 0
    /// UIView.layoutMargins and the autoresizing mask.
    public var layoutMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    public var autoresizingMask: UInt = 0
    public private(set) var subviews: [View] = []
    public private(set) weak var superview: View?

    public init(frame: Rect = .zero) {
        self.frame = frame
        layer.bounds = Rect(origin: .zero, size: frame.size)
    }

    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// `parent.addSubview(child)` as a function value, for lazy containers.
    public static func attach(_ child: View, to parent: View) { parent.addSubview(child) }

    /// `child.removeFromSuperview()` as a function value.
    public static func detach(_ child: View) { child.removeFromSuperview() }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        // From the end: views are mostly removed in the reverse order they were added
        // (a scenario releasing what it built), and searching from the front made
        // releasing n subviews cost n^2/2 comparisons.
        if let index = parent.subviews.lastIndex(where: { $0 === self }) {
            parent.subviews.remove(at: index)
        }
        superview = nil
    }

    /// Makes adding `count` more subviews allocate nothing: room in the subviews array,
    /// and the weak-reference side table that a child's `superview` needs already made.
    /// Measurements call it first so that a child's cost is the child's alone.
    public func prepareToHost(_ count: Int) {
        subviews.reserveCapacity(subviews.count + count)
        weak let formsSideTable = self
        _ = formsSideTable
    }
}
