/// Stands for UIImageView: a view that shows an image it does not own exclusively.
public final class ImageView: View {
    public enum ContentMode: Sendable { case scaleToFill, scaleAspectFit, scaleAspectFill, center }

    /// The shown image is a reference: images are usually shared between views.
    public var image: Image?
    public var highlightedImage: Image?
    public var animationImages: [Image]?
    public var animationDuration = 0.0
    public var animationRepeatCount = 0
    public var contentMode = ContentMode.scaleToFill
    public var isHighlighted = false
    public private(set) var isAnimating = false

    public init(image: Image? = nil, frame: Rect = .zero) {
        self.image = image
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }
}
