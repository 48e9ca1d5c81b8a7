import ArgumentParser

/// A subcommand name that does not exist: `profctl reprot` said only "Unexpected
/// argument 'reprot'", and `profctl baseline st main --db x` blamed `--db`. The entry
/// points report the name, the closest command and every command there is instead.
public struct UnknownCommand: Equatable, Sendable {
    public let name: String
    public let message: String

    /// The first argument that stands where a subcommand of `root` (or of one of its
    /// subcommands) must be, and names none; nil when there is none.
    public static func first<Root: ParsableCommand>(in arguments: [String], root: Root.Type) -> UnknownCommand? {
        var command: ParsableCommand.Type = root
        var path = [root._commandName]
        for argument in arguments {
            if argument == "--" || argument.hasPrefix("-") { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil else { return nil }
            if let sub = subcommands.first(where: { $0._commandName == argument }) {
                command = sub
                path.append(sub._commandName)
                continue
            }
            let names = subcommands.map { $0._commandName }
            let suggestion = UnknownOption.closest(to: argument, among: Set(names))
            let message = """
                Error: '\(path.joined(separator: " "))' has no command '\(argument)'.\(suggestion.map { " Did you mean '\($0)'?" } ?? "")
                Commands: \(names.joined(separator: ", "))
                  See '\(path.joined(separator: " ")) --help' for more information.
                """
            return UnknownCommand(name: argument, message: message)
        }
        return nil
    }
}
