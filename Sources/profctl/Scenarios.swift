import ArgumentParser
import Profiler

struct Scenarios: ParsableCommand, Exemplified {
    static let examples = [
        "profctl scenarios",
    ]

    static let configuration = CommandConfiguration(
        abstract: "List the built-in scenarios, one line each."
    )

    func run() throws {
        let width = BuiltInScenarios.all.map(\.name.count).max() ?? 0
        for scenario in BuiltInScenarios.all {
            let pad = String(repeating: " ", count: width - scenario.name.count)
            Console.output("\(scenario.name)\(pad)  \(scenario.summary); strategies: \(scenario.strategies.joined(separator: ", "))\n")
        }
    }
}
