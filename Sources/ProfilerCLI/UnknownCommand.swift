import ArgumentParser

/// A subcommand name that does not exist: `profctl reprot` said only "Unexpected
/// argument 'reprot'", and `profctl baseline st main --db x` blamed `--db`. The entry
/// points report the name, the closest command and every command there is instead.
package struct UnknownCommand: Equatable, Sendable {
    package let name: String
    package let message: String

    /// The first argument that stands where a subcommand of `root` (or of one of its
    /// subcommands) must be, and names none; nil when there is none.
    package static func first<Root: ParsableCommand>(in arguments: [String], root: Root.Type) -> UnknownCommand? {
        let path = CommandPath(arguments, root: root)
        guard let argument = path.unknown else { return nil }
        let names = path.command.configuration.subcommands.map { $0._commandName }
        let suggestion = UnknownOption.closest(to: argument, among: Set(names))
        let command = path.names.joined(separator: " ")
        let message = """
            Error: '\(command)' has no command '\(argument)'.\(suggestion.map { " Did you mean '\($0)'?" } ?? "")
            Commands: \(names.joined(separator: ", "))
              See '\(command) --help' for more information.
            """
        return UnknownCommand(name: argument, message: message)
    }
}
