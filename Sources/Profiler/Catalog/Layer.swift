/// Stands for CALayer: every view is backed by one, and it holds most of what is drawn.
public final class Layer {
    public var bounds = Rect.zero
    public var position = Point.zero
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    public var zPosition = 0.0
    public var transform = Transform3D.identity
    public var opacity: Float = 1
    public var isHidden = false
    public var masksToBounds = false
    public var cornerRadius = 0.0
    public var borderWidth = 0.0
    public var borderColor: Color?
    public var backgroundColor: Color?
    public var shadowColor: Color?
    public var shadowOpacity: Float = 0
    public var shadowRadius = 3.0
    public var shadowOffset = Size(width: 0, height: -3)
    /// The backing store (CGImage or bitmap) once the layer has drawn; nil until then.
    public var contents: AnyObject?
    public var contentsScale = 1.0
    public var sublayers: [Layer] = []
    public weak var superlayer: Layer?

    public init() {}
}
