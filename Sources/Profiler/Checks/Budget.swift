import Foundation
import ProfilerModel
import ProfilerSupport
import Yams

/// An absolute limit on a metric, from a budgets file:
///
///     budgets:
///       - scenario: lazy-container
///         component: Label          # optional: every component when left out
///         strategy: eager           # optional: every strategy when left out
///         metric: bytes_per_instance
///         max: 800                  # or min: for a larger-is-better metric
package struct Budget: Sendable, Equatable {
    package let scenario: String
    package let component: String?
    package let strategy: String?
    package let metric: String
    package let max: Double?
    package let min: Double?
    /// Where it was written, for messages.
    package let origin: String

    package func matches(_ key: MetricKey) -> Bool {
        key.scenario == scenario && key.name == metric
            && (component.map { $0 == key.component } ?? true) && (strategy.map { $0 == key.strategy } ?? true)
    }

    /// Nil when the value keeps to the budget; otherwise what it broke.
    package func violation(_ value: Double) -> String? {
        if let max, value > max { return "over budget: \(SQLValue.numberText(value)) > max \(SQLValue.numberText(max)) (\(origin))" }
        if let min, value < min { return "under budget: \(SQLValue.numberText(value)) < min \(SQLValue.numberText(min)) (\(origin))" }
        return nil
    }

    static let keys = ["scenario", "component", "strategy", "metric", "max", "min"]

    /// Reads a budgets file, with bounded work whatever it holds (BoundedYAML); mistakes
    /// come back with file, line and column.
    package static func load(path: String) throws -> [Budget] {
        try read(BoundedYAML.load(path: path, what: "budgets file"), path: path)
    }

    package static func parse(_ text: String, path: String) throws -> [Budget] {
        try read(BoundedYAML.compose(Data(text.utf8), path: path), path: path)
    }

    static func read(_ root: Node?, path: String) throws -> [Budget] {
        func fail(_ node: Node?, _ message: String) -> ScenarioFileError {
            ScenarioFileError(path: path, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
        }
        guard let root, let top = root.mapping, let list = top["budgets"] else {
            throw fail(root, "a budgets file is a mapping with a `budgets:` list")
        }
        guard let items = list.sequence else { throw fail(list, "`budgets:` must be a list of budgets") }
        return try items.map { item in
            guard let mapping = item.mapping else { throw fail(item, "a budget is a mapping of \(keys.joined(separator: ", "))") }
            var fields: [String: Node] = [:]
            for (key, value) in mapping {
                guard let name = key.string, keys.contains(name) else {
                    throw fail(key, "unknown key '\(BoundedYAML.excerpt(key.string ?? "?"))'; valid keys: \(keys.joined(separator: ", "))")
                }
                fields[name] = value
            }
            func word(_ name: String) throws -> String? {
                guard let node = fields[name] else { return nil }
                guard let text = node.scalar?.string, !text.isEmpty else { throw fail(node, "\(name) must be a word") }
                if let problem = StrictScalars.wordProblem(text, name) { throw fail(node, problem) }
                return text
            }
            func number(_ name: String) throws -> Double? {
                guard let node = fields[name] else { return nil }
                guard let scalar = node.scalar, let value = StrictScalars.number(scalar) else {
                    throw fail(node, "\(name) must be a number\(StrictScalars.hint(node.scalar))")
                }
                return value
            }
            guard let scenario = try word("scenario") else { throw fail(item, "a budget needs `scenario:`") }
            guard let metric = try word("metric") else { throw fail(item, "a budget needs `metric:` (a report column, e.g. bytes_per_instance)") }
            let max = try number("max"), min = try number("min")
            guard max != nil || min != nil else { throw fail(item, "a budget needs `max:` or `min:`") }
            let line = item.mark.map { "\(path):\($0.line)" } ?? path
            return Budget(scenario: scenario, component: try word("component"), strategy: try word("strategy"),
                          metric: metric, max: max, min: min, origin: line)
        }
    }
}
