import ArgumentParser
import Foundation

/// An option on the command line that the command it was given to does not declare.
///
/// ArgumentParser runs a command's `validate()` before it reports options it does not
/// know, and a misspelt option's value then reaches `validate()` as a positional
/// argument: `profctl record lazy-container --instancez 5` said "unknown scenario '5'".
/// When validation fails, `ProfctlEntry.main` looks for such an option and reports it
/// instead, as ArgumentParser would have.
struct UnknownOption: Equatable {
    /// The option as typed, without any `=value`.
    let name: String
    /// The declared option closest to it, when one is close.
    let suggestion: String?
    /// The (sub)command the option was given to.
    let command: ParsableCommand.Type

    static func == (a: UnknownOption, b: UnknownOption) -> Bool {
        a.name == b.name && a.suggestion == b.suggestion && a.command == b.command
    }

    /// The first `--option` in `arguments` (those after the program's name) that the
    /// profctl command they select does not declare; nil when every one is declared.
    static func first(in arguments: [String]) -> UnknownOption? {
        var command: ParsableCommand.Type = Profctl.self
        var given: [String] = []
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("--") {
                given.append(String(argument.prefix { $0 != "=" }))
            } else if given.isEmpty,
                      let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) {
                command = sub
            }
        }
        let known = declaredOptions(of: command)
        guard let unknown = given.first(where: { !known.contains($0) }) else { return nil }
        return UnknownOption(name: unknown, suggestion: closest(to: unknown, among: known), command: command)
    }

    /// Every `--name` the command's help lists, hidden options included.
    static func declaredOptions(of command: ParsableCommand.Type) -> Set<String> {
        let help = Profctl.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: Set<String> = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help"]
        var rest = Substring(help)
        while let start = rest.range(of: "--") {
            let name = rest[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { names.insert("--" + name) }
            rest = rest[start.upperBound...]
        }
        return names
    }

    /// The declared name at the smallest edit distance, when that distance is at most 2.
    static func closest(to name: String, among known: Set<String>) -> String? {
        let scored = known.sorted().map { (name: $0, distance: editDistance(Array(name), Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// What profctl prints, in ArgumentParser's words and layout.
    var message: String {
        let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
        let names = [Profctl._commandName] + Self.path(to: command, from: Profctl.self).map { $0._commandName }
        let path = names.joined(separator: " ")
        return """
            Error: Unknown option '\(name)'.\(hint)
            Usage: \(Profctl.usageString(for: command))
              See '\(path) --help' for more information.
            """
    }

    private static func path(to command: ParsableCommand.Type, from root: ParsableCommand.Type) -> [ParsableCommand.Type] {
        if command == root { return [] }
        for sub in root.configuration.subcommands {
            if sub == command { return [sub] }
            let below = path(to: command, from: sub)
            if !below.isEmpty { return [sub] + below }
        }
        return []
    }
}
