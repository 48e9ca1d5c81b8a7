import ArgumentParser
import Foundation

extension ParsableCommand {
    /// When a command line failed to parse or validate because of a name the parser
    /// reports less well (a subcommand that does not exist, an option the command does
    /// not declare), prints that mistake and exits 64; otherwise returns.
    package static func exitOnMistakenName(in arguments: [String], after error: any Error) {
        guard exitCode(for: error) == .validationFailure,
              let message = UnknownCommand.first(in: arguments, root: Self.self)?.message
                  ?? UnknownOption.first(in: arguments, root: Self.self)?.message else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(withError: ExitCode.validationFailure)
    }

    /// A help request (`--help`, `-h`, `help`) that names a subcommand that does not exist:
    /// the parser answers `profctl typo --help` with the root's help and exit 0, so a
    /// misspelt command went unnoticed. Prints the mistake and exits 64; otherwise returns.
    package static func exitOnUnknownCommandInHelp(_ arguments: [String]) {
        // `profctl help baseline st`: the words after `help` name the command.
        let words = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        guard let message = UnknownCommand.first(in: words, root: Self.self)?.message else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(withError: ExitCode.validationFailure)
    }
}
