import ArgumentParser

/// swift-argument-parser looks for `--generate-completion-script` on every command line by
/// parsing it against two stand-in commands first, reflecting them with `Mirror` (7.9M of the
/// 55M instructions of `profctl report` on a small database, issue 25). It leaves that check
/// out for a root command whose configuration names a super-command, its one switch. So a root
/// command's configuration carries an empty super-command name while `parseAsRoot` runs on a
/// command line that has no such argument, and only then: help, usage and errors are rendered
/// after the parse, from the plain configuration, and a line that asks for a completion script
/// is parsed as before.
package enum CompletionScriptCheck {
    /// True only inside `parse(_:as:)` for a command line without a completion-script request,
    /// and only for the task (or thread) parsing: tests parse and render help in parallel.
    @TaskLocal private static var skipping = false

    /// Parses `arguments` with `command` as root, without the completion-script check when no
    /// argument asks for a script.
    package static func parse<Command: ParsableCommand>(_ arguments: [String], as command: Command.Type) throws -> ParsableCommand {
        let skip = !arguments.contains { $0.hasPrefix("--generate-completion-script") }
        return try $skipping.withValue(skip) { try command.parseAsRoot(arguments) }
    }

    /// The configuration a root command gives: `plain`, or during a parse that skips the check,
    /// `plain` with an empty super-command name (which no help text sees).
    package static func configuration(_ plain: CommandConfiguration) -> CommandConfiguration {
        guard skipping else { return plain }
        var parsing = plain
        parsing._superCommandName = ""
        return parsing
    }
}
