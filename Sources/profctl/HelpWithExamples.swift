import ArgumentParser
import ProfilerCLI

/// A command whose help ends with examples. ArgumentParser prints a command's
/// discussion before its usage and options, so profctl appends an EXAMPLES section itself.
protocol Exemplified {
    static var examples: [String] { get }
}

extension Profctl {
    /// Runs the command line, printing help with its EXAMPLES section last.
    static func main() {
        ProcessSetup.prepare()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try CompletionScriptCheck.parse(arguments, as: Profctl.self)
            try command.runAsProfctl()
        } catch {
            if let help = helpWithExamples(for: error, arguments: arguments) {
                exitOnUnknownCommandInHelp(arguments)
                print(help)
                Self.exit()
            }
            // A misspelt option's value can fail validation first: name the option instead.
            exitOnMistakenName(in: arguments, after: error)
            Self.exit(withError: error)
        }
    }

    /// The help text for a help request, with the examples of the command it names;
    /// nil when the error is anything other than a request for help.
    static func helpWithExamples(for error: any Error, arguments: [String]) -> String? {
        let text = fullMessage(for: error)
        guard exitCode(for: error) == .success, text.contains("USAGE:") else { return nil }
        let examples = command(named: arguments)?.examples ?? Profctl.examples
        let section = examples.map { "  " + $0 }.joined(separator: "\n")
        return text.trimmingTrailingNewlines() + "\n\nEXAMPLES:\n" + section
    }

    /// The (nested) subcommand the arguments name (`profctl record --help`, `profctl help
    /// record`, `profctl baseline set --help`).
    private static func command(named arguments: [String]) -> (any Exemplified.Type)? {
        var command: ParsableCommand.Type = Profctl.self
        for argument in arguments where !argument.hasPrefix("-") {
            guard let match = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { continue }
            command = match
        }
        return command == Profctl.self ? nil : command as? any Exemplified.Type
    }
}

private extension String {
    func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last == "\n" { copy.removeLast() }
        return copy
    }
}
