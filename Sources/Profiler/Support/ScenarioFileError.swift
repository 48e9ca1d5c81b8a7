/// A mistake in a scenario file, with where it is and what would be valid; when the file
/// holds several, the first, with the others in `others` (each `path:line:column`, like a
/// compiler's diagnostics).
package struct ScenarioFileError: Error, CustomStringConvertible, Equatable, Sendable {
    package let path: String
    package let line: Int
    package let column: Int
    package let message: String
    /// The file's other mistakes, in the order of the file.
    package var others: [ScenarioFileError] = []

    /// The most mistakes one message lists; the rest are counted.
    package static let maxListed = 20

    package init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// The first of `mistakes` in the order of the file, carrying the others; nil when there is none.
    package init?(all mistakes: [ScenarioFileError]) {
        let ordered = mistakes.enumerated().sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
        guard let first = ordered.first else { return nil }
        self = first
        others = Array(ordered.dropFirst())
    }

    /// `path:line:column: message`, one line per mistake; a file that could not be read at
    /// all has no position (line 0), and is named alone.
    package var description: String {
        var lines = [single]
        lines += others.prefix(Self.maxListed - 1).map(\.single)
        if others.count >= Self.maxListed {
            lines.append("\(path): and \(others.count + 1 - Self.maxListed) more mistakes")
        }
        return lines.joined(separator: "\n")
    }

    private var single: String { line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)" }
}
