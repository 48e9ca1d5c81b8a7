import ArgumentParser
import Profiler
import ProfilerCLI

struct Scenarios: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl scenarios",
        "profctl scenarios --verbose",
    ]

    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "List the built-in scenarios, one line each."
    )

    @Flag(name: .shortAndLong, help: "Also list each scenario's parameters with their defaults and valid values.")
    var verbose = false

    func execute() throws {
        let width = BuiltInScenarios.all.map(\.name.count).max() ?? 0
        for scenario in BuiltInScenarios.all {
            let pad = String(repeating: " ", count: width - scenario.name.count)
            Console.output("\(scenario.name)\(pad)  \(scenario.summary); strategies: \(scenario.strategies.joined(separator: ", "))\n")
            guard verbose else { continue }
            for spec in scenario.parameters {
                Console.output("    \(spec.name) = \(spec.defaultValue): \(spec.summary); \(spec.validValues)\n")
            }
        }
    }
}
