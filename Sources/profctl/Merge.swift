import Foundation
import ArgumentParser
import Profiler
import ProfilerCLI

struct Merge: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl merge history.sqlite ci-linux.sqlite ci-release.sqlite",
    ]

    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine databases from several machines into one history.",
        discussion: """
            Runs are keyed by their UUID: a run already in OUT is skipped, so merging the \
            same input twice adds nothing. Inputs are only read. Runs still recording are \
            left out. A run's allocation sites (record --sites) come with it, their frames and \
            stacks stored once in OUT. Each input is merged in one transaction. A baseline \
            label (per scenario) in both keeps the one set more recently (baseline set), so \
            merging a main-branch job's database moves the history's main label forward; \
            each label that moved is named on stderr.
            """
    )

    @Argument(help: "The database to merge into (created when missing).") var output: String
    @Argument(help: "Databases to merge from.") var inputs: [String]

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("name at least one database to merge from") }
        // An empty path (`merge "$OUT" ...` with OUT unset) would open SQLite's temporary
        // database, deleted on close: "1 runs added" and nothing kept.
        if output.isEmpty {
            throw ValidationError("the output database path is empty (an unset variable?); give the file to merge into")
        }
        if let position = inputs.firstIndex(of: "") {
            throw ValidationError("input \(position + 1) is an empty path (an unset variable?); give each database to merge from")
        }
        if inputs.contains(output) { throw ValidationError("\(output) is both the output and an input") }
        // The same file under another name (a symbolic link, `./`) would add nothing and say
        // "0 runs added" as if the input had been merged.
        let outputFile = Self.resolved(output)
        if let alias = inputs.first(where: { Self.resolved($0) == outputFile }) {
            throw ValidationError("\(alias) is \(output) under another name (the same file); give the output and the inputs as different databases")
        }
    }

    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Its databases are its arguments, not `--db`: the advice in its errors says so.
    static func reporting(_ body: () throws -> Void) throws {
        try reportingErrors(databasesNamedBy: .arguments, body)
    }

    func execute() throws {
        for outcome in try Merger.merge(into: output, from: inputs, views: BuiltInScenarios.reportViews()) {
            Console.message("\(outcome.input): \(outcome.runsAdded) runs added, \(outcome.runsAlreadyPresent) already in \(output)")
            for moved in outcome.labelsMoved { Console.message("\(outcome.input): label moved, \(moved) (set later in \(outcome.input))") }
        }
    }
}
