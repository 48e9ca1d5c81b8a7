import Foundation
import Testing

/// Every command the documentation shows runs as printed and succeeds: the EXAMPLES of
/// every subcommand's `--help`, and every `profctl` line of the README's and docs/'s
/// shell blocks. The commands are found mechanically, so new examples are covered
/// without touching this file.
///
/// The README's commands run in order on a fresh database, as a newcomer would type
/// them. Every other source runs on a copy of a prepared folder: `profile.sqlite` with
/// two runs of every built-in scenario (composite-cell aside: see PreparedFolder) and the label `main`, the files the examples
/// name (`budgets.yaml`, `history.sqlite`, `old.sqlite`, `scenarios/`, ...), and
/// `$GITHUB_STEP_SUMMARY`. Run ids in examples (eight hex digits, like `2d0aa0d3`) stand
/// for real runs: each distinct one becomes the prefix of another recorded run.
@Suite("Documented examples")
struct DocumentedExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where commands come from: a subcommand's help, or a Markdown file.
    enum Source: CustomStringConvertible, Sendable {
        case help([String])
        case document(String)

        var description: String {
            switch self {
            case .help(let path): (["profctl"] + path + ["--help"]).joined(separator: " ")
            case .document(let file): file
            }
        }
    }

    // MARK: Finding the commands

    /// The lines of a help text's section headed `title:`, trimmed.
    static func section(_ title: String, of help: String) -> [String] {
        var lines: [String] = [], inside = false
        for line in help.components(separatedBy: "\n") {
            if line == "\(title):" { inside = true; continue }
            guard inside else { continue }
            if line.isEmpty || !line.hasPrefix("  ") { break }
            lines.append(line.trimmingCharacters(in: .whitespaces))
        }
        return lines
    }

    /// Every command path (`[]`, `["record"]`, `["baseline", "set"]`, ...) and its help text.
    static func helpTexts() throws -> [(path: [String], help: String)] {
        var found: [(path: [String], help: String)] = []
        var pending: [[String]] = [[]]
        let folder = try TemporaryFolder()
        while let path = pending.first {
            pending.removeFirst()
            let result = try ProfctlProcess.run(path + ["--help"], in: folder.url)
            found.append((path, result.stdout))
            // A subcommand's line starts with its name two spaces in; its abstract may wrap
            // onto lines indented further.
            let lines = result.stdout.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { continue }
            for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
                guard let match = line.range(of: #"^  [a-z][a-z-]*( |$)"#, options: .regularExpression) else { continue }
                let name = line[match].trimmingCharacters(in: .whitespaces)
                if name != "help" { pending.append(path + [name]) }
            }
        }
        return found
    }

    /// The commands of one help text's EXAMPLES section.
    static func examples(inHelp help: String) -> [String] { section("EXAMPLES", of: help) }

    /// The `profctl` command lines of a Markdown file's sh, text, console and bash blocks:
    /// `$ profctl ...` and `profctl ...`, also after `VAR=value ` or inside `VAR=$(...)`,
    /// with trailing comments removed.
    static func commands(inMarkdown text: String) -> [String] {
        var commands: [String] = [], inBlock = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inBlock = !inBlock && ["```sh", "```text", "```console", "```bash"].contains(line)
                continue
            }
            guard inBlock else { continue }
            var command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
            if let comment = command.range(of: #"\s+# .*$"#, options: .regularExpression) { command.removeSubrange(comment) }
            // `own-components` is the example user program of README.md and docs/api.md.
            if command.range(of: #"^([A-Z_]+=(\$\()?)?(profctl|own-components) "#, options: .regularExpression) != nil {
                commands.append(command)
            }
        }
        return commands
    }

    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    // MARK: The prepared folder

    /// Runs one shell command line in `folder` with profctl on PATH.
    static func shell(_ command: String, in folder: URL, store: String? = nil) throws -> ProfctlProcess.Result {
        let path = ProfctlProcess.binary.deletingLastPathComponent().path + ":" + OwnComponentsExample.pathFolder.path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        var environment = ["PATH": path, "GITHUB_STEP_SUMMARY": folder.appendingPathComponent("summary.md").path]
        environment["PROFCTL_STORE"] = store
        return try ProfctlProcess.run(executable: URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", command],
                                      environment: environment, in: folder)
    }

    /// The host the documentation's PostgreSQL examples name; they run against the test
    /// server's database instead (PostgresTestDatabase), which holds the prepared runs.
    static let exampleStore = "postgres://ci@db.example/profctl"

    /// Whether a command needs the PostgreSQL store.
    static func needsStore(_ command: String) -> Bool {
        command.contains("--store") || command.contains("PROFCTL_STORE") || command.contains(" push")
    }

    /// A folder with everything the examples name, made once per test process.
    static let prepared: Result<PreparedFolder, any Error> = Result { try PreparedFolder() }

    final class PreparedFolder: @unchecked Sendable {
        let folder: TemporaryFolder
        /// Run ids of the newest lazy-container runs first: what placeholder ids stand for.
        let runIDs: [String]

        init() throws {
            folder = try TemporaryFolder()
            let url = folder.url
            // composite-cell is left out: no example needs it, and its first cell's one-time
            // costs vary between identical runs (docs/ci.md, "Not gated at all").
            for _ in 0..<2 {
                let record = try shell("profctl record lazy-container image-cache lazy-list identity live-room --quiet", in: url)
                guard record.status == 0 else { throw ExampleFailure("preparing: \(record.stderr)") }
            }
            let label = try shell("profctl baseline set main", in: url)
            guard label.status == 0 else { throw ExampleFailure("preparing: \(label.stderr)") }
            for copy in ["history.sqlite", "ci-linux.sqlite", "ci-release.sqlite", "ci.sqlite", "run.sqlite"] {
                try FileManager.default.copyItem(at: url.appendingPathComponent("profile.sqlite"), to: url.appendingPathComponent(copy))
            }
            try FileManager.default.copyItem(at: root.appendingPathComponent("Tests/Fixtures/schema-v1.sqlite"),
                                             to: url.appendingPathComponent("old.sqlite"))
            try FileManager.default.copyItem(at: root.appendingPathComponent("scenarios"), to: url.appendingPathComponent("scenarios"))
            try Data(DocumentedExamplesTests.budgets.utf8).write(to: url.appendingPathComponent("budgets.yaml"))
            try Data(try TypeCheckProcessTests.documentedBudgets().utf8).write(to: url.appendingPathComponent("types-budgets.yaml"))
            let runs = try shell("sqlite3 profile.sqlite \"SELECT run_id FROM runs WHERE scenario = 'lazy-container' ORDER BY started_at DESC\"", in: url)
            runIDs = runs.stdout.split(separator: "\n").map(String.init)
            // The store's examples read the same runs, pushed into a database of their own
            // (nil, after PostgresTestDatabase's failure or warning, when there is no server).
            store = try PostgresTestDatabase.make("the documentation's PostgreSQL examples", cancelling: false)
            if let store {
                let push = try shell("profctl push --quiet --to '\(store.url)'", in: url)
                guard push.status == 0 else { throw ExampleFailure("preparing the store: \(push.stderr)") }
            }
        }

        /// The test server's database the store examples run against.
        let store: PostgresTestDatabase?

        /// A copy of the prepared folder, or an empty folder for a fresh start.
        func copy(empty: Bool) throws -> TemporaryFolder {
            let target = try TemporaryFolder()
            guard !empty else { return target }
            for entry in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
                try FileManager.default.copyItem(at: folder.url.appendingPathComponent(entry), to: target.url.appendingPathComponent(entry))
            }
            return target
        }
    }

    /// Budgets that hold for every recording of the built-in scenarios.
    static let budgets = """
        budgets:
          - scenario: lazy-container
            strategy: lazy
            metric: bytes_per_instance
            max: 64
        """

    struct ExampleFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The command with each distinct placeholder run id replaced by a real run's prefix.
    static func substitutingRunIDs(_ commands: [String], _ runIDs: [String]) -> [String] {
        var mapping: [String: String] = [:]
        return commands.map { command in
            var result = command
            var searchFrom = result.startIndex
            while let range = result.range(of: #"\b[0-9a-f]{8}\b"#, options: .regularExpression, range: searchFrom..<result.endIndex) {
                let token = String(result[range])
                guard !runIDs.isEmpty, !runIDs.contains(where: { $0.hasPrefix(token) }) else {
                    searchFrom = range.upperBound
                    continue
                }
                if mapping[token] == nil { mapping[token] = String(runIDs[min(mapping.count, runIDs.count - 1)].prefix(8)) }
                let replacement = mapping[token] ?? token
                result.replaceSubrange(range, with: replacement)
                searchFrom = result.index(range.lowerBound, offsetBy: replacement.count)
            }
            return result
        }
    }

    // MARK: The tests

    static let sources: [Source] = {
        let helps = (try? helpTexts())?.map { Source.help($0.path) } ?? []
        let docs = (try? documents())?.map(Source.document) ?? []
        return helps + docs
    }()

    @Test("commands are found in every subcommand's help and in the README")
    func found() throws {
        let helps = try Self.helpTexts()
        #expect(helps.count >= 14)
        for (path, help) in helps where !path.isEmpty && path != ["baseline"] {
            #expect(!Self.examples(inHelp: help).isEmpty, "\(path) has no EXAMPLES")
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(Self.commands(inMarkdown: readme).count >= 10)
    }

    @Test("every documented command runs as printed and exits 0", arguments: sources)
    func runs(_ source: Source) throws {
        let commands: [String]
        var fresh = false
        switch source {
        case .help(let path):
            let help = try ProfctlProcess.run(path + ["--help"], in: FileManager.default.temporaryDirectory).stdout
            commands = Self.examples(inHelp: help)
        case .document(let file):
            commands = Self.commands(inMarkdown: try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8))
            fresh = file == "README.md"
        }
        guard !commands.isEmpty else { return }
        let prepared = try Self.prepared.get()
        let folder = try prepared.copy(empty: fresh)
        for command in Self.substitutingRunIDs(commands, prepared.runIDs) {
            // Without a server the store's examples cannot run: PostgresTestDatabase.make
            // already failed the run (CI) or warned loudly.
            guard !Self.needsStore(command) || prepared.store != nil else { continue }
            let store = prepared.store?.url
            let runnable = store.map { command.replacingOccurrences(of: Self.exampleStore, with: $0) } ?? command
            let result = try Self.shell(runnable, in: folder.url, store: store)
            #expect(result.status == 0, "\(source): `\(command)` exited \(result.status): \(result.stderr)")
        }
    }
}
