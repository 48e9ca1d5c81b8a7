import ArgumentParser
import Profiler

/// A `--format` value: one of the formats `Menu` offers. Its help and the error for any
/// other name list exactly those (argument-parser exits 64 with them), so no command
/// types a list of format names by hand.
public struct FormatOption<Menu: FormatMenu>: ExpressibleByArgument, Sendable, Equatable {
    public let format: OutputFormat

    public init(_ format: OutputFormat) { self.format = format }

    public init?(argument: String) {
        guard let format = OutputFormat(rawValue: argument), Menu.formats.contains(format) else { return nil }
        self.format = format
    }

    public static var allValueStrings: [String] { Menu.formats.map(\.rawValue) }
    public var defaultValueDescription: String { format.rawValue }

    /// "table, markdown, csv, json or html." and, where a command has more to say, its note
    /// in parentheses.
    public static func help(_ note: String? = nil) -> ArgumentHelp {
        ArgumentHelp(OutputFormat.list(Menu.formats) + (note.map { " (\($0))" } ?? "") + ".")
    }

    public static func == (option: Self, format: OutputFormat) -> Bool { option.format == format }
    public static func != (option: Self, format: OutputFormat) -> Bool { option.format != format }
}

/// `--format` of a command that prints tables.
public typealias TableFormat = FormatOption<TableFormats>
