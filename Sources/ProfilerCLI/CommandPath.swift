import ArgumentParser

/// The (sub)command the leading words of a command line select under a root command:
/// `baseline set main --db x` selects `baseline set`. The walk stops at the first option,
/// at a command without subcommands, or at a word that stands where a subcommand must be
/// and names none (`unknown`).
struct CommandPath {
    private(set) var command: ParsableCommand.Type
    /// The names on the way, the root's first: what `See '... --help'` quotes.
    private(set) var names: [String]
    /// A word where one of `command`'s subcommands must be, naming none of them.
    private(set) var unknown: String?

    init<Root: ParsableCommand>(_ arguments: [String], root: Root.Type) {
        command = root
        names = [root._commandName]
        for argument in arguments {
            if argument.hasPrefix("-") { return }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil else { return }
            guard let sub = subcommands.first(where: { $0._commandName == argument }) else {
                unknown = argument
                return
            }
            command = sub
            names.append(sub._commandName)
        }
    }
}
