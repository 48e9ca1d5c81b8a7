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
///       - scenario: swift-leaks
///         metric: objects_per_instance
///         type: ProfilerCatalog.TickerScreen   # optional: every type when left out
///         max: 1
package struct Budget: Sendable, Equatable {
    package let scenario: String
    package let component: String?
    package let strategy: String?
    package let metric: String
    /// With `metric: objects_per_instance` (TypeMetricName.family): the one type it limits;
    /// nil limits every type.
    package let type: String?
    package let max: Double?
    package let min: Double?
    /// Where it was written, for messages.
    package let origin: String

    package func matches(_ key: MetricKey) -> Bool {
        key.scenario == scenario && matches(metricName: key.name)
            && (component.map { $0 == key.component } ?? true) && (strategy.map { $0 == key.strategy } ?? true)
    }

    /// The family `objects_per_instance` stands for each type's metric (or `type`'s alone).
    func matches(metricName name: String) -> Bool {
        guard metric == TypeMetricName.family else { return name == metric }
        guard let typed = TypeMetricName(name) else { return false }
        return type.map { $0 == typed.type } ?? true
    }

    /// Nil when the value keeps to the budget; otherwise what it broke.
    package func violation(_ value: Double) -> String? {
        if let max, value > max { return "over budget: \(SQLValue.numberText(value)) > max \(SQLValue.numberText(max)) (\(origin))" }
        if let min, value < min { return "under budget: \(SQLValue.numberText(value)) < min \(SQLValue.numberText(min)) (\(origin))" }
        return nil
    }

    static let keys = ["scenario", "component", "strategy", "metric", "type", "max", "min"]

    /// A type's name is longer than a word (generic arguments, module names).
    static let maxTypeNameLength = 512

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
            var type: String?
            if let node = fields["type"] {
                guard metric == TypeMetricName.family else {
                    throw fail(node, "`type:` limits the objects of one Swift type: it goes with `metric: \(TypeMetricName.family)`, not \(BoundedYAML.excerpt(metric))")
                }
                guard let text = node.scalar?.string, !text.isEmpty else { throw fail(node, "type must be a type's name, as `profctl types` shows it") }
                if text.count > maxTypeNameLength { throw fail(node, "type '\(BoundedYAML.excerpt(text))' is too long: at most \(maxTypeNameLength) characters") }
                if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                    throw fail(node, "type '\(BoundedYAML.excerpt(text))' holds a control character")
                }
                type = text
            }
            let line = item.mark.map { "\(path):\($0.line)" } ?? path
            return Budget(scenario: scenario, component: try word("component"), strategy: try word("strategy"),
                          metric: metric, type: type, max: max, min: min, origin: line)
        }
    }
}
