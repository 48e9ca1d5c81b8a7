/// A mistake in a scenario file, with where it is and what would be valid.
public struct ScenarioFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: message`; a file that could not be read at all has no position
    /// (line 0), and is named alone.
    public var description: String { line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)" }
}
