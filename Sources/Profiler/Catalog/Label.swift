/// Stands for UILabel: a view that draws one attributed string.
public final class Label: View {
    /// The label's text lives in an attributed string with one run of font and colour.
    public private(set) var textStorage: TextStorage
    public var font: Font
    public var textColor: Color
    public var highlightedTextColor: Color?
    public var shadowColor: Color?
    public var shadowOffset = Size(width: 0, height: -1)
    public var textAlignment = TextAlignment.natural
    public var lineBreakMode = LineBreakMode.byTruncatingTail
    public var numberOfLines = 1
    public var isEnabled = true
    public var isHighlighted = false
    public var adjustsFontSizeToFitWidth = false
    public var minimumScaleFactor = 0.0
    public var preferredMaxLayoutWidth = 0.0
    /// UILabel caches the size its text needs between layouts.
    public var cachedIntrinsicSize: Size?

    public init(text: String, font: Font = .system, textColor: Color = .black, frame: Rect = .zero) {
        self.font = font
        self.textColor = textColor
        self.textStorage = TextStorage(string: text, font: font, color: textColor)
        super.init(frame: frame)
    }

    public var text: String { textStorage.string }

    public func setText(_ text: String) {
        textStorage = TextStorage(string: text, font: font, color: textColor)
        cachedIntrinsicSize = nil
    }
}
