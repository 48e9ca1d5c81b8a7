import ArgumentParser
import Foundation

extension ParsableCommand {
    /// When a command line failed to parse or validate because of a name the parser
    /// reports less well (a subcommand that does not exist, an option the command does
    /// not declare), prints that mistake and exits 64; otherwise returns.
    public static func exitOnMistakenName(in arguments: [String], after error: any Error) {
        guard exitCode(for: error) == .validationFailure,
              let message = UnknownCommand.first(in: arguments, root: Self.self)?.message
                  ?? UnknownOption.first(in: arguments, root: Self.self)?.message else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(withError: ExitCode.validationFailure)
    }
}
