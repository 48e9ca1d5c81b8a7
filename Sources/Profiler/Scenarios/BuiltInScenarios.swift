/// The scenarios compiled into profctl, one per seed experiment.
public enum BuiltInScenarios {
    public static let all: [any Scenario] = [
        LazyContainerScenario(),
    ]

    public static func named(_ name: String) throws -> any Scenario {
        guard let scenario = all.first(where: { $0.name == name }) else {
            throw ScenarioError.unknownScenario(name, known: all.map(\.name))
        }
        return scenario
    }
}

public enum ScenarioError: Error, CustomStringConvertible, Equatable, Sendable {
    case unknownScenario(String, known: [String])
    case invalidOption(String)

    public var description: String {
        switch self {
        case .unknownScenario(let name, let known):
            "unknown scenario '\(name)'; built-in scenarios: \(known.joined(separator: ", ")) (see: profctl scenarios)"
        case .invalidOption(let text): text
        }
    }
}
