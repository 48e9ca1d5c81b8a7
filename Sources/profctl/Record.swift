import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Record: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container",
        "profctl record image-cache lazy-list composite-cell identity live-room",
        "profctl record lazy-list --set rows=500 --set scroll=down,up,down --strategies eager,lazy",
        "profctl record scenarios/long-feed.yaml --db feed.sqlite",
        "RUN=$(profctl record lazy-container --quiet) && profctl report --run $RUN",
    ]

    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run scenarios on the allocation hooks and store their events.",
        discussion: """
            Each scenario (a built-in name, or a YAML scenario file: docs/scenario-format.md) \
            becomes one run (a UUID, printed on stdout) with its events, steps, samples, \
            environment and rollups. Everything is checked before anything is recorded. \
            Progress goes to stderr. List the built-in scenarios and their parameters with \
            `profctl scenarios --verbose`.
            """
    )

    @OptionGroup var options: RecordArguments

    @Argument(help: "Built-in scenario names, or paths to .yaml scenario files.",
              completion: .custom { _, _, prefix in
                  ScenarioCompletion.candidates(names: BuiltInScenarios.all.map(\.name), prefix: prefix)
              })
    var scenarios: [String]

    /// The scenarios with their options, resolved once by validate(): what run() records.
    var plans: [RecordPlan]?

    enum CodingKeys: CodingKey { case options, scenarios }

    var database: DatabaseOptions { options.database }

    mutating func validate() throws {
        plans = try options.plans(for: scenarios, lookUp: BuiltInScenarios.named)
    }

    func execute() throws {
        // validate() has resolved them whenever the parser made this command.
        try options.record(try plans ?? options.plans(for: scenarios, lookUp: BuiltInScenarios.named))
    }
}
