import Foundation
import ProfilerStore

/// A scenario's whole declaration as a run stores it (`run_declarations`): its name, what
/// it measures, its strategies, parameters, steps, metrics, report and what it keeps on
/// purpose. Readers (`check --leaks`, plain `profctl` on a user's own executable's runs)
/// take a run's scenario from here, so they need not have the scenario's code.
public struct ScenarioDeclaration: Sendable, Equatable, Codable {
    /// One parameter: its name, meaning, valid values and the default.
    public struct Parameter: Sendable, Equatable, Codable {
        public let name: String
        public let summary: String
        public let validValues: String
        public let defaultValue: String
    }

    /// The scenario's own name (a scenario file's `kind`), not the run's.
    public let name: String
    public let summary: String
    public let baselineStrategy: String
    public let strategies: [String]
    public let countParameter: String
    public let parameters: [Parameter]
    public let steps: [String]
    public let metrics: [String]
    /// Its report's name; the report's own declaration is stored with its view (`report_views`).
    public let report: String
    public let keptOnPurpose: [KeptBytes]

    public init(_ scenario: any Scenario) {
        name = scenario.name
        summary = scenario.summary
        baselineStrategy = scenario.baselineStrategy
        strategies = scenario.strategies
        countParameter = scenario.countParameter
        parameters = scenario.parameters.map {
            Parameter(name: $0.name, summary: $0.summary, validValues: $0.validValues, defaultValue: $0.defaultValue.description)
        }
        steps = scenario.steps
        metrics = scenario.metrics
        report = scenario.report.name
        keptOnPurpose = scenario.keptOnPurpose
    }

    /// The text stored in `run_declarations.declaration`: JSON with sorted keys.
    public func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads a stored declaration back.
    public static func decode(_ text: String) throws -> ScenarioDeclaration {
        try JSONDecoder().decode(ScenarioDeclaration.self, from: Data(text.utf8))
    }

    /// The declaration a run stored, or nil: a run recorded before schema version 9, or a
    /// store without the table.
    public static func stored(runID: String, in db: any SQLRowSource) throws -> ScenarioDeclaration? {
        guard try db.hasRelation("run_declarations") else { return nil }
        guard let text = try db.scalar("""
            SELECT d.declaration FROM run_declarations d JOIN runs r ON r.run_key = d.run_key WHERE r.run_id = ?
            """, [.text(runID)])?.string else { return nil }
        do {
            return try decode(text)
        } catch {
            throw ScenarioDeclarationError(runID: runID, store: db.storeName, reason: String(describing: error))
        }
    }
}

/// A stored declaration that cannot be read: written by a newer or damaged profctl.
public struct ScenarioDeclarationError: Error, CustomStringConvertible, Equatable, Sendable {
    public let runID: String
    public let store: String
    public let reason: String

    public var description: String {
        "\(store): run \(runID)'s stored scenario declaration cannot be read (\(reason)); "
            + "read it with the profctl that recorded it, or record the run again"
    }
}
