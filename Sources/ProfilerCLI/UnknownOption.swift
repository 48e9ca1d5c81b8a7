import ArgumentParser
import Foundation

/// An option on the command line that the command it was given to does not declare.
///
/// ArgumentParser runs a command's `validate()` before it reports options it does not
/// know, and a misspelt option's value then reaches `validate()` as a positional
/// argument: `profctl record lazy-container --instancez 5` said "unknown scenario '5'".
/// When validation fails, profctl's main and `ProfilerMain` look for such an option and
/// report it instead, as ArgumentParser would have.
package struct UnknownOption: Equatable, Sendable {
    /// The option as typed, without any `=value`.
    package let name: String
    /// The declared option closest to it, when one is close.
    package let suggestion: String?
    /// What to print: the option, the suggestion, the command's usage and help pointer.
    package let message: String

    /// The first `--option` in `arguments` (those after the program's name) that the
    /// command they select under `root` does not declare; nil when every one is declared.
    package static func first<Root: ParsableCommand>(in arguments: [String], root: Root.Type) -> UnknownOption? {
        let given = arguments.prefix { $0 != "--" }.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
        let selected = CommandPath(arguments, root: root)
        let path = selected.names.joined(separator: " ")
        let known = declaredOptions(in: Root.helpMessage(for: selected.command, includeHidden: true, columns: 10_000))
        guard let name = given.first(where: { !known.contains($0) }) else { return nil }
        if name.contains(where: \.isWhitespace) {
            // Not a misspelt option: an argument (SQL with a leading comment, say) that starts with "--".
            let shown = name.prefix { $0 != "\n" }
            let message = """
                Error: '\(shown)\(shown.count < name.count ? "..." : "")' starts with '--', so it was read as an option: \
                put a lone '--' before it (everything after '--' is an argument), e.g. \(path) -- '-- note' ...
                  See '\(path) --help' for more information.
                """
            return UnknownOption(name: name, suggestion: nil, message: message)
        }
        let suggestion = closest(to: name, among: known)
        let message = """
            Error: Unknown option '\(name)'.\(suggestion.map { " Did you mean '\($0)'?" } ?? "")
            Usage: \(Root.usageString(for: selected.command))
              See '\(path) --help' for more information.
            """
        return UnknownOption(name: name, suggestion: suggestion, message: message)
    }

    /// Every `--name` a help text lists (hidden options included), and ArgumentParser's own.
    static func declaredOptions(in help: String) -> Set<String> {
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
}
