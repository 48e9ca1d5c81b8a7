import ArgumentParser
import Profiler

struct Scenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in scenarios, one line each.",
        discussion: """
            Example:
              profctl scenarios
            """
    )

    func run() throws {
        let width = BuiltInScenarios.all.map(\.name.count).max() ?? 0
        for scenario in BuiltInScenarios.all {
            let pad = String(repeating: " ", count: width - scenario.name.count)
            Console.output("\(scenario.name)\(pad)  \(scenario.summary); strategies: \(scenario.strategies.joined(separator: ", "))\n")
        }
    }
}
