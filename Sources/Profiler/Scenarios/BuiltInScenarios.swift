import ProfilerModel
import ProfilerQueries
import ProfilerStore

/// The scenarios compiled into profctl, one per seed experiment.
package enum BuiltInScenarios {
    package static let all: [any Scenario] = [
        LazyContainerScenario(),
        LazyListScenario(),
        CompositeCellScenario(),
        ImageCacheScenario(),
        IdentityScenario(),
        LiveRoomScenario(),
        SwiftLeaksScenario(),
        ARCCalibrationScenario(),
    ]

    /// Every report the built-in scenarios declare, each once (the savings report first).
    package static let reports: [ReportDeclaration] = reports(of: all)

    /// The reports of some scenarios, each once, the savings report first.
    package static func reports(of scenarios: [any Scenario]) -> [ReportDeclaration] {
        ([ReportDeclaration.savings] + scenarios.map(\.report)).reduce(into: []) { unique, report in
            if !unique.contains(where: { $0.name == report.name }) { unique.append(report) }
        }
    }

    /// The built-in reports' views, for a database opened for writing (`migrate`, `merge`).
    package static func reportViews() throws -> [RepeatableView] {
        try reports.map { try $0.repeatableView() }
    }

    /// The reports a database's runs are read with: those it stores, then the built-in ones.
    package static func reportCatalog(in db: any SQLRowSource) throws -> ReportCatalog {
        try ReportCatalog.load(from: db, declared: reports)
    }

    /// The per-scenario part of docs/schema.md: every built-in report and its columns.
    package static var reportViewsDoc: String {
        let users = Dictionary(grouping: all, by: \.report.name).mapValues { $0.map(\.name) }
        return ReportViewsDoc.markdown(reports, users: users)
    }

    package static func named(_ name: String) throws -> any Scenario {
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
    /// A step or metric recorded that the scenario's declaration does not list.
    case undeclared(String, String, scenario: String, declared: [String])

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
        case .undeclared(let what, let name, let scenario, let declared):
            "\(scenario) recorded the \(what) '\(name)', which it does not declare (its \(what)s: \(declared.joined(separator: ", "))); "
                + "add it to the scenario's \(what)s"
        }
    }
}
