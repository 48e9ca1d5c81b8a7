import Foundation
import ProfilerStore

/// A scenario's whole declaration as a run stores it (`run_declarations`): its name, what
/// it measures, its strategies, parameters, steps, metrics, report and what it keeps on
/// purpose. Readers (`check --leaks`, plain `profctl` on a user's own executable's runs)
/// take a run's scenario from here, so they need not have the scenario's code.
package struct ScenarioDeclaration: Sendable, Equatable, Codable {
    /// One parameter: its name, meaning, valid values and the default.
    package struct Parameter: Sendable, Equatable, Codable {
        package let name: String
        package let summary: String
        package let validValues: String
        package let defaultValue: String
    }

    /// The scenario's own name (a scenario file's `kind`), not the run's.
    package let name: String
    package let summary: String
    package let baselineStrategy: String
    package let strategies: [String]
    package let countParameter: String
    package let parameters: [Parameter]
    package let steps: [String]
    package let metrics: [String]
    /// Its report's name; the report's own declaration is stored with its view (`report_views`).
    package let report: String
    package let keptOnPurpose: [KeptBytes]

    package init(_ scenario: any Scenario) {
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
    package func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads a stored declaration back.
    package static func decode(_ text: String) throws -> ScenarioDeclaration {
        try JSONDecoder().decode(ScenarioDeclaration.self, from: Data(text.utf8))
    }

    /// The declaration a run stored, or nil: a run recorded before schema version 9, or a
    /// store without the table.
    package static func stored(runID: String, in db: any SQLRowSource) throws -> ScenarioDeclaration? {
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
package struct ScenarioDeclarationError: Error, CustomStringConvertible, Equatable, Sendable {
    package let runID: String
    package let store: String
    package let reason: String

    package var description: String {
        "\(store): run \(runID)'s stored scenario declaration cannot be read (\(reason)); "
            + "read it with the profctl that recorded it, or record the run again"
    }
}
