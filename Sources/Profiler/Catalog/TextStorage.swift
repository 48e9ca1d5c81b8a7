/// Stands for NSParagraphStyle. The default is shared, as UIKit's is.
public final class ParagraphStyle: @unchecked Sendable {
    public let lineSpacing: Double
    public let alignment: TextAlignment
    public let lineBreakMode: LineBreakMode

    public init(lineSpacing: Double = 0, alignment: TextAlignment = .natural, lineBreakMode: LineBreakMode = .byTruncatingTail) {
        self.lineSpacing = lineSpacing
        self.alignment = alignment
        self.lineBreakMode = lineBreakMode
    }

    public static let `default` = ParagraphStyle()
}

public enum TextAlignment: Sendable { case natural, left, center, right, justified }
public enum LineBreakMode: Sendable { case byWordWrapping, byCharWrapping, byClipping, byTruncatingTail }

/// One attribute run of an attributed string: a range and what applies to it.
public struct AttributeRun {
    public var range: Range<Int>
    public var font: Font
    public var foregroundColor: Color
    public var paragraphStyle: ParagraphStyle
}

/// Stands for NSAttributedString / NSTextStorage: a UILabel keeps its text as one,
/// the characters plus attribute runs.
public final class TextStorage {
    public private(set) var string: String
    public private(set) var runs: [AttributeRun]

    public init(string: String, font: Font, color: Color, paragraphStyle: ParagraphStyle = .default) {
        self.string = string
        self.runs = [AttributeRun(range: 0..<string.utf16.count, font: font,
                                  foregroundColor: color, paragraphStyle: paragraphStyle)]
    }
}
