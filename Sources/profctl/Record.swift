import ArgumentParser
import Foundation
import Profiler

struct Record: ParsableCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container",
        "profctl record image-cache lazy-list composite-cell identity live-room",
        "profctl record lazy-list --set rows=500 --set scroll=down,up,down --strategies eager,lazy",
        "profctl record scenarios/long-feed.yaml --db /tmp/feed.sqlite",
        "RUN=$(profctl record lazy-container --quiet) && profctl report --run $RUN",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Run scenarios on the allocation hooks and store their events.",
        discussion: """
            Each scenario (a built-in name, or a YAML scenario file: docs/scenario-format.md) \
            becomes one run (a UUID, printed on stdout) with its events, steps, samples, \
            environment and rollups. Everything is checked before anything is recorded. \
            Progress goes to stderr. List the built-in scenarios and their parameters with \
            `profctl scenarios`.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "Built-in scenario names, or paths to .yaml scenario files.")
    var scenarios: [String]

    @Option(name: .customLong("repeat"), help: "How many times each scenario runs within its run (default: 1, or the file's).")
    var repeats: Int?

    @Option(help: "Sets the scenario's main count: instances, rows, items, placements, cells or panels.")
    var instances: Int?

    @Option(name: .customLong("set"), help: ArgumentHelp("Sets a parameter, e.g. --set viewport=12 (repeatable).", valueName: "name=value"))
    var settings: [String] = []

    @Option(help: ArgumentHelp("Only these strategies, comma-separated.", valueName: "a,b"))
    var strategies: String?

    @Flag(name: .shortAndLong, help: "No progress on stderr.")
    var quiet = false

    func validate() throws {
        if let repeats, repeats < 1 { throw ValidationError("--repeat must be at least 1 (got \(repeats))") }
        if let instances, instances < 1 { throw ValidationError("--instances must be at least 1 (got \(instances))") }
        do {
            _ = try plans()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// Every scenario with its options, all checked: nothing runs unless all are valid.
    func plans() throws -> [(scenario: any Scenario, options: RecordOptions)] {
        try scenarios.map { argument in
            var scenario: any Scenario
            var options: RecordOptions
            if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") || argument.contains("/") {
                let file = try ScenarioFile.load(path: argument)
                (scenario, options) = (file.scenario, file.options)
            } else {
                (scenario, options) = (try BuiltInScenarios.named(argument), RecordOptions())
            }
            if let repeats { options.repeats = repeats }
            if let instances { options.parameters[scenario.countParameter] = .int(instances) }
            for setting in settings {
                let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let spec = scenario.parameters.first(where: { $0.name == parts[0] }) else {
                    throw ValidationError("--set \(setting): \(scenario.name) takes name=value with a name among: "
                                          + scenario.parameters.map(\.name).joined(separator: ", "))
                }
                guard let value = spec.parse(parts[1]) else {
                    throw ValidationError("--set \(setting): \(spec.name) must be \(spec.validValues)")
                }
                options.parameters[spec.name] = value
            }
            if let strategies { options.strategies = strategies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            _ = try scenario.resolve(options)
            return (scenario, options)
        }
    }

    func run() throws {
        try reportingErrors {
            let environment = RunEnvironment.current()
            for (scenario, options) in try plans() {
                let started = AllocationScope.monotonicNanoseconds()
                let quiet = self.quiet
                let summary = try ScenarioRunner.record(scenario, database: database.path, options: options,
                                                        environment: environment) { line in
                    if !quiet { Console.message(line) }
                }
                let seconds = Double(AllocationScope.monotonicNanoseconds() - started) / 1e9
                if !quiet {
                    Console.message("recorded \(options.runName ?? scenario.name) as run \(summary.runID): \(summary.events) events in "
                                    + String(format: "%.2f", seconds) + " s into \(database.path)")
                }
                Console.output(summary.runID + "\n")
            }
        }
    }
}
