import ArgumentParser
import Foundation
import Profiler

/// The entry point for a user's own profiling executable: it takes `profctl record`'s
/// options and records the user's scenarios into the same database format, which
/// `profctl report`, `query` and `check` then read.
///
///     import Profiler
///     import ProfilerCLI
///
///     ProfilerMain.run(scenarios: [BadgeScenario()])
///
/// `my-profiler` records every scenario; `my-profiler badge --instances 100 --db x.sqlite`
/// records the one named.
public enum ProfilerMain {
    public static func run(scenarios: [any Scenario], arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        ProcessSetup.prepare()
        UserRecord.scenarios = scenarios
        RecordArguments.describedScenarios = scenarios
        do {
            var command = try CompletionScriptCheck.parse(arguments, as: UserRecord.self)
            try command.runAsProfctl()
        } catch {
            // A misspelt option's value can fail validation first: name the option instead.
            UserRecord.exitOnMistakenName(in: arguments, after: error)
            UserRecord.exit(withError: error)
        }
        exit(0)
    }
}

/// `record` for a user's registry of scenarios.
struct UserRecord: ProfctlCommand {
    nonisolated(unsafe) static var scenarios: [any Scenario] = []

    static var configuration: CommandConfiguration {
        CompletionScriptCheck.configuration(CommandConfiguration(
            commandName: URL(fileURLWithPath: CommandLine.arguments.first ?? "record").lastPathComponent,
            abstract: "Record this program's scenarios into a profctl database.",
            discussion: "Scenarios:\n" + scenarios.map(describe).joined(separator: "\n")
                + "\n\nRead the results with `profctl report --db PATH`."))
    }

    /// One scenario for --help: its name and summary, strategies, and each parameter with
    /// its valid values and default (the count one is what --instances sets).
    static func describe(_ scenario: any Scenario) -> String {
        let parameters = scenario.parameters.map { spec in
            "    \(spec.name) (\(spec.name == scenario.countParameter ? "--instances" : "--set \(spec.name)=...")): \(spec.summary); "
                + "\(spec.validValues), default \(spec.defaultValue)"
        }
        return (["  \(scenario.name): \(scenario.summary)", "    strategies: \(scenario.strategies.joined(separator: ", "))"]
                + parameters).joined(separator: "\n")
    }

    @OptionGroup var options: RecordArguments

    @Argument(help: "Scenarios to record, by name (default: all of them), or scenario files.",
              completion: .custom { _, _, prefix in
                  ScenarioCompletion.candidates(names: UserRecord.scenarios.map(\.name), prefix: prefix)
              })
    var names: [String] = []

    func lookUp(_ name: String) throws -> any Scenario {
        guard let scenario = Self.scenarios.first(where: { $0.name == name }) else {
            throw ScenarioError.unknownScenario(name, known: Self.scenarios.map(\.name))
        }
        return scenario
    }

    /// The scenarios with their options, resolved once by validate(): what run() records.
    var plans: [RecordPlan]?

    enum CodingKeys: CodingKey { case options, names }

    func resolvePlans() throws -> [RecordPlan] {
        try options.plans(for: names.isEmpty ? Self.scenarios.map(\.name) : names, lookUp: lookUp, registry: Self.scenarios)
    }

    mutating func validate() throws {
        plans = try resolvePlans()
    }

    func execute() throws {
        // validate() has resolved them whenever the parser made this command.
        try options.record(try plans ?? resolvePlans())
    }
}
