import ArgumentParser

/// A command that does something (not a group of commands): its body is `execute()`, and
/// the error reporting around it (library errors to a message on stderr and the exit code
/// ExitCodes.swift gives them) is provided here, once, instead of being remembered in each
/// command. `main` runs a parsed command through `runReportingErrors()`, never through
/// the command's own `run()`, so a command cannot leave the reporting out; one that is
/// not a ProfctlCommand at all is named by ProfctlCommandTests, which reads the tree.
package protocol ProfctlCommand: ParsableCommand {
    /// What the command does. Throw library errors as they are: they are reported for it.
    func execute() throws

    /// Runs `body`, turning its errors into messages and exit codes: `reportingErrors`
    /// unless the command reads another store (profctl's `StoreCommand`) or names its
    /// databases differently (`merge`).
    static func reporting(_ body: () throws -> Void) throws
}

extension ProfctlCommand {
    package static func reporting(_ body: () throws -> Void) throws {
        try reportingErrors(body)
    }

    /// The command's body inside its error reporting: what `main` calls.
    package func runReportingErrors() throws {
        try Self.reporting { try execute() }
    }

    /// ArgumentParser's entry point, for callers that hold the command as its own type.
    package func run() throws {
        try runReportingErrors()
    }
}

extension ParsableCommand {
    /// Runs a parsed command: a ProfctlCommand through its error reporting, anything else
    /// (a group, which prints its help) as ArgumentParser would.
    package mutating func runAsProfctl() throws {
        if let command = self as? any ProfctlCommand {
            try command.runReportingErrors()
        } else {
            try run()
        }
    }
}
