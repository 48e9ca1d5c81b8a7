import Foundation
import Testing

/// The README's tour shows what the commands print: every table in its `text` blocks
/// (a header line over a line of dashes, after a `$ profctl ...` command) has the columns
/// that command prints today, in order; a header ending in `...` shows the first ones.
/// The figures are a release build's and are not compared (a debug build counts other
/// retains); DocumentedExamplesTests runs the commands themselves.
@Suite("README tour output")
struct ReadmeTourOutputTests {
    /// A table's header: the line above a line of dashes and spaces.
    static func headers(_ lines: [String]) -> [[String]] {
        zip(lines, lines.dropFirst()).compactMap { line, under in
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty, under.contains("-"),
                  under.allSatisfy({ $0 == "-" || $0 == " " }) else { return nil }
            return line.split(separator: " ").map(String.init)
        }
    }

    /// Each `$ profctl ...` command of the README's text blocks, with the lines shown after it.
    static func shownCommands(_ readme: String) -> [(command: [String], output: [String])] {
        var found: [(command: [String], output: [String])] = [], inText = false
        for line in readme.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inText = !inText && line == "```text"; continue }
            guard inText else { continue }
            if line.hasPrefix("$ profctl ") {
                found.append((line.dropFirst(2).split(separator: " ").map(String.init), []))
            } else if !found.isEmpty {
                found[found.count - 1].output.append(line)
            }
        }
        return found
    }

    @Test("every table the tour shows has the columns its command prints")
    func tourTablesMatch() throws {
        let readme = try String(contentsOf: DocumentedExamplesTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = Self.shownCommands(readme).filter { !Self.headers($0.output).isEmpty }
        // The report, the image-cache report and whatif's answer, at least.
        #expect(shown.count >= 3, "\(shown.map(\.command))")
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["image-cache", "--set", "requests=300", "--set", "images=30", "--set", "icon_side=8",
                                   "--set", "photo_side=64"], in: folder)
        for (command, output) in shown {
            let result = try ProfctlProcess.run(Array(command.dropFirst()), in: folder.url)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let printed = Self.headers(result.stdout.components(separatedBy: "\n"))
            for header in Self.headers(output) {
                let elided = header.last == "..."
                let columns = elided ? Array(header.dropLast()) : header
                let match = printed.first { $0.first == columns.first }
                #expect(match.map { elided ? Array($0.prefix(columns.count)) : $0 } == columns,
                        "README shows `\(command.joined(separator: " "))` printing\n\(header.joined(separator: " "))\nbut it prints\n\(match?.joined(separator: " ") ?? "no such table")")
            }
        }
    }
}
