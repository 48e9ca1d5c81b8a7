import Foundation
import ProfilerStore

/// A parameter of a run, stored in runs.parameters as JSON.
public enum ParameterValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case strings([String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let v = try? container.decode([String].self) { self = .strings(v) }
        else if let v = try? container.decode(Bool.self) { self = .bool(v) }
        else if let v = try? container.decode(Int.self) { self = .int(v) }
        else if let v = try? container.decode(Double.self) { self = .double(v) }
        else { self = .string(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let v): try container.encode(v)
        case .double(let v): try container.encode(v)
        case .string(let v): try container.encode(v)
        case .bool(let v): try container.encode(v)
        case .strings(let v): try container.encode(v)
        }
    }

    public var description: String {
        switch self {
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .string(let v): v
        case .bool(let v): String(v)
        case .strings(let v): v.joined(separator: ",")
        }
    }
}

/// What a run is about to record: the scenario, what savings are measured against,
/// and its parameters.
package struct RunDescription: Sendable, Equatable {
    package var scenario: String
    package var baselineStrategy: String
    package var parameters: [String: ParameterValue]
    /// The name of the report its runs are read with (`runs.report`).
    package var report: String
    /// The report's view, installed (or brought up to date) when the database is opened.
    package var reportViews: [RepeatableView]
    /// The scenario's whole declaration as JSON (ScenarioDeclaration), stored with the run
    /// in `run_declarations` so readers need not have the scenario's code; nil stores none.
    package var declaration: String?

    package init(scenario: String, baselineStrategy: String, parameters: [String: ParameterValue],
                report: String = "savings", reportViews: [RepeatableView] = [], declaration: String? = nil) {
        self.scenario = scenario
        self.baselineStrategy = baselineStrategy
        self.parameters = parameters
        self.report = report
        self.reportViews = reportViews
        self.declaration = declaration
    }

    var parametersJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(parameters) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
