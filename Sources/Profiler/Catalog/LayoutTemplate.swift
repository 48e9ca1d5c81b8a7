import Foundation

/// A layout description parsed at run time, as a NIB is decoded: one element a line,
/// `kind name x y width height`, with `W` and `H` standing for the cell's size.
public struct LayoutTemplate: Sendable {
    public struct Element: Sendable, Equatable {
        public let kind: String
        public let name: String
        public let frame: [String]
    }

    public let elements: [Element]

    /// The mail cell's layout, as it would sit in a template file.
    public static let mailCellSource = """
        # mail cell: 4 labels, 2 images, 1 button
        image  avatar     12   12  40     40
        label  sender     64   8   W-140  20
        label  subject    64   30  W-80   18
        label  preview    64   50  W-80   32
        label  date       W-70 8   60     16
        image  attachment W-36 56  20     20
        button flag       W-36 30  24     24
        """

    public enum ParseError: Error, CustomStringConvertible {
        case malformed(line: Int, text: String)
        public var description: String {
            switch self {
            case .malformed(let line, let text): "layout template line \(line): '\(text)' is not 'kind name x y width height'"
            }
        }
    }

    /// Decodes the template text: every instantiation pays for this, as NIB decoding does.
    public static func parse(_ source: String) throws -> LayoutTemplate {
        var elements: [Element] = []
        for (number, line) in source.split(separator: "\n").enumerated() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if words.isEmpty || words[0].hasPrefix("#") { continue }
            guard words.count == 6 else { throw ParseError.malformed(line: number + 1, text: String(line)) }
            elements.append(Element(kind: words[0], name: words[1], frame: Array(words[2...])))
        }
        return LayoutTemplate(elements: elements)
    }

    /// Evaluates `W-80` style coordinates against the cell size.
    static func value(_ text: String, width: Double, height: Double) -> Double {
        for (symbol, size) in [("W", width), ("H", height)] where text.hasPrefix(symbol) {
            return size - (Double(text.dropFirst(2)) ?? 0)
        }
        return Double(text) ?? 0
    }

    /// Builds a mail cell from the elements.
    public func instantiate(_ content: MailContent, width: Double, height: Double) throws -> MailCell {
        var labels: [String: Label] = [:], images: [String: ImageView] = [:], buttons: [String: Button] = [:]
        for element in elements {
            let f = element.frame.map { Self.value($0, width: width, height: height) }
            let frame = Rect(x: f[0], y: f[1], width: f[2], height: f[3])
            switch element.kind {
            case "label": labels[element.name] = Label(text: "", frame: frame)
            case "image": images[element.name] = ImageView(image: Image.sampleIcon, frame: frame)
            case "button": buttons[element.name] = Button(title: element.name.capitalized, frame: frame)
            default: throw ParseError.malformed(line: 0, text: element.kind)
            }
        }
        guard let sender = labels["sender"], let subject = labels["subject"], let preview = labels["preview"],
              let date = labels["date"], let avatar = images["avatar"], let attachment = images["attachment"],
              let flag = buttons["flag"] else {
            throw ParseError.malformed(line: 0, text: "the mail cell template lacks an element")
        }
        let cell = MailCell(frame: Rect(x: 0, y: 0, width: width, height: height), sender: sender, subject: subject,
                            preview: preview, date: date, avatar: avatar, attachment: attachment, flag: flag)
        cell.configure(content)
        return cell
    }
}
