/// The scenarios compiled into profctl, one per seed experiment.
public enum BuiltInScenarios {
    public static let all: [any Scenario] = [
        LazyContainerScenario(),
        LazyListScenario(),
        CompositeCellScenario(),
        ImageCacheScenario(),
        IdentityScenario(),
        LiveRoomScenario(),
        SwiftLeaksScenario(),
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
    case unknownStrategy(String, scenario: String, known: [String])
    case unknownParameter(String, scenario: String, known: [String])
    case invalidValue(String, value: String, expected: String)
    case invalidOption(String)

    public var description: String {
        switch self {
        case .unknownScenario(let name, let known):
            "unknown scenario '\(name)'; known scenarios: \(known.joined(separator: ", "))"
        case .unknownStrategy(let name, let scenario, let known):
            "\(scenario) has no strategy '\(name)'; its strategies: \(known.joined(separator: ", "))"
        case .unknownParameter(let name, let scenario, let known):
            "\(scenario) has no parameter '\(name)'; its parameters: \(known.joined(separator: ", "))"
        case .invalidValue(let name, let value, let expected):
            "'\(value)' is not a valid \(name): expected \(expected)"
        case .invalidOption(let text): text
        }
    }
}
