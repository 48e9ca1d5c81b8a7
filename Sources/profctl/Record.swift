import ArgumentParser
import Foundation
import Profiler

struct Record: ParsableCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container",
        "profctl record lazy-container --instances 500 --repeat 3 --db /tmp/lazy.sqlite",
        "RUN=$(profctl record lazy-container --quiet) && profctl report --run $RUN",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Run scenarios on the allocation hooks and store their events.",
        discussion: """
            Each scenario becomes one run (a UUID, printed on stdout) with its events, \
            environment and per-(component, strategy) rollups. Progress goes to stderr. \
            List the built-in scenarios with `profctl scenarios`.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "Scenarios to record, by name.")
    var scenarios: [String]

    @Option(name: .customLong("repeat"), help: "How many times each scenario runs within its run.")
    var repeats = 1

    @Option(help: "Instances per component and strategy (default: the scenario's own, 1000 for lazy-container).")
    var instances: Int?

    @Flag(name: .shortAndLong, help: "No progress on stderr.")
    var quiet = false

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeat must be at least 1 (got \(repeats))") }
        if let instances, instances < 1 { throw ValidationError("--instances must be at least 1 (got \(instances))") }
        for name in scenarios {
            do { _ = try BuiltInScenarios.named(name) } catch { throw ValidationError(String(describing: error)) }
        }
    }

    func run() throws {
        try reportingErrors {
            let options = RecordOptions(instances: instances, repeats: repeats)
            let environment = RunEnvironment.current()
            for name in scenarios {
                let scenario = try BuiltInScenarios.named(name)
                let started = AllocationScope.monotonicNanoseconds()
                let quiet = self.quiet
                let summary = try ScenarioRunner.record(scenario, database: database.path, options: options,
                                                        environment: environment) { line in
                    if !quiet { Console.message(line) }
                }
                let seconds = Double(AllocationScope.monotonicNanoseconds() - started) / 1e9
                if !quiet {
                    Console.message("recorded \(name) as run \(summary.runID): \(summary.events) events in "
                                    + String(format: "%.2f", seconds) + " s into \(database.path)")
                }
                Console.output(summary.runID + "\n")
            }
        }
    }
}
