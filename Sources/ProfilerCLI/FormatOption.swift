import ArgumentParser
import Profiler

/// A `--format` value: one of the formats `Menu` offers. Its help and the error for any
/// other name list exactly those (argument-parser exits 64 with them), so no command
/// types a list of format names by hand.
package struct FormatOption<Menu: FormatMenu>: ExpressibleByArgument, Sendable, Equatable {
    package let format: OutputFormat

    package init(_ format: OutputFormat) { self.format = format }

    package init?(argument: String) {
        guard let format = OutputFormat(rawValue: argument), Menu.formats.contains(format) else { return nil }
        self.format = format
    }

    package static var allValueStrings: [String] { Menu.formats.map(\.rawValue) }
    package var defaultValueDescription: String { format.rawValue }

    /// "table, markdown, csv, json or html." and, where a command has more to say, its note
    /// in parentheses.
    package static func help(_ note: String? = nil) -> ArgumentHelp {
        ArgumentHelp(OutputFormat.list(Menu.formats) + (note.map { " (\($0))" } ?? "") + ".")
    }

    package static func == (option: Self, format: OutputFormat) -> Bool { option.format == format }
    package static func != (option: Self, format: OutputFormat) -> Bool { option.format != format }
}

/// `--format` of a command that prints tables.
package typealias TableFormat = FormatOption<TableFormats>

/// A `--format` option's menu, read from the option's type alone (no parsed value), so
/// docs/cli.md's synopses spell each command's formats from its menu (GeneratedDocsTests).
package protocol FormatMenuOption {
    static var offered: [OutputFormat] { get }
}

extension FormatOption: FormatMenuOption {
    package static var offered: [OutputFormat] { Menu.formats }
}
