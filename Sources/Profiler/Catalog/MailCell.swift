import Foundation

/// What a mail-list cell shows.
public struct MailContent: Sendable {
    public var sender: String
    public var subject: String
    public var preview: String
    public var date: String

    public static func sample(_ n: Int) -> MailContent {
        MailContent(sender: "Sender \(n)", subject: "Subject line of message \(n)",
                    preview: "The first words of message \(n), shown as a two-line preview under the subject",
                    date: "09:\(n % 60)")
    }
}

/// A mail-list cell made of views: four labels, two images, one button (seed 3's cell),
/// built either by hand or from a layout template.
public final class MailCell: View {
    public let sender: Label
    public let subject: Label
    public let preview: Label
    public let date: Label
    public let avatar: ImageView
    public let attachment: ImageView
    public let flag: Button

    init(frame: Rect, sender: Label, subject: Label, preview: Label, date: Label,
         avatar: ImageView, attachment: ImageView, flag: Button) {
        self.sender = sender
        self.subject = subject
        self.preview = preview
        self.date = date
        self.avatar = avatar
        self.attachment = attachment
        self.flag = flag
        super.init(frame: frame)
        for view in [sender, subject, preview, date, avatar, attachment, flag] as [View] { addSubview(view) }
    }

    /// Hand-written code: every frame and property set directly.
    public static func handBuilt(_ content: MailContent, width: Double, height: Double) -> MailCell {
        MailCell(frame: Rect(x: 0, y: 0, width: width, height: height),
                 sender: Label(text: content.sender, frame: Rect(x: 64, y: 8, width: width - 140, height: 20)),
                 subject: Label(text: content.subject, frame: Rect(x: 64, y: 30, width: width - 80, height: 18)),
                 preview: Label(text: content.preview, textColor: .secondaryLabel, frame: Rect(x: 64, y: 50, width: width - 80, height: 32)),
                 date: Label(text: content.date, textColor: .secondaryLabel, frame: Rect(x: width - 70, y: 8, width: 60, height: 16)),
                 avatar: ImageView(image: Image.sampleIcon, frame: Rect(x: 12, y: 12, width: 40, height: 40)),
                 attachment: ImageView(image: Image.sampleIcon, frame: Rect(x: width - 36, y: 56, width: 20, height: 20)),
                 flag: Button(title: "Flag", frame: Rect(x: width - 36, y: 30, width: 24, height: 24)))
    }

    /// Puts new content into a reused cell.
    public func configure(_ content: MailContent) {
        sender.setText(content.sender)
        subject.setText(content.subject)
        preview.setText(content.preview)
        date.setText(content.date)
    }
}

/// A cell that draws everything into one bitmap it owns (drawRect): one view, no
/// subviews, and a pixel buffer of width x height x 4 bytes x scale squared.
public final class DrawnMailCell: View {
    public let scale: Double
    public private(set) var bitmap: [UInt8]
    private let pixelWidth: Int

    public init(_ content: MailContent, width: Double, height: Double, scale: Double) {
        self.scale = scale
        pixelWidth = Int(width * scale)
        bitmap = [UInt8](repeating: 0, count: pixelWidth * Int(height * scale) * 4)
        super.init(frame: Rect(x: 0, y: 0, width: width, height: height))
        draw(content)
    }

    /// Rasterises the content: every text fills the pixel rows its line covers, a stand-in
    /// for glyph drawing that touches as many pixels.
    public func draw(_ content: MailContent) {
        let lines = [(content.sender, 8.0), (content.subject, 30.0), (content.preview, 50.0), (content.date, 8.0)]
        bitmap.withUnsafeMutableBufferPointer { pixels in
            for (text, top) in lines {
                let rowStart = Int(top * scale), rows = Int(16 * scale)
                let run = min(pixelWidth, text.utf8.count * Int(7 * scale)) * 4
                for row in rowStart..<min(rowStart + rows, pixels.count / (pixelWidth * 4)) {
                    let base = row * pixelWidth * 4
                    for offset in 0..<run { pixels[base + offset] = UInt8(truncatingIfNeeded: offset &+ row) }
                }
            }
        }
    }
}
