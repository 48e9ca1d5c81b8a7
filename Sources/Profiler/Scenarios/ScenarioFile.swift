import Foundation
import ProfilerRecording
import ProfilerSupport
import Yams

/// A scenario described in YAML: which built-in kind, its parameters, strategies and
/// repeats (docs/scenario-format.md). Everything is checked when the file is loaded, so
/// nothing is recorded for a file that does not validate.
///
///     scenario: lazy-list
///     name: long-feed
///     repeats: 2
///     strategies: [eager, lazy]
///     parameters:
///       rows: 500
///       scroll: [down, up]
package struct ScenarioFile: Sendable {
    package let path: String
    package let scenario: any Scenario
    package let options: RecordOptions

    static let keys = ["scenario", "name", "repeats", "strategies", "parameters"]

    /// Reads and checks a scenario file, with bounded work whatever it holds (BoundedYAML).
    /// `registry`: the scenarios its `scenario:` may name (a user's executable passes its own).
    package static func load(path: String, registry: [any Scenario] = BuiltInScenarios.all) throws -> ScenarioFile {
        try read(BoundedYAML.load(path: path, what: "scenario file"), path: path, registry: registry)
    }

    package static func parse(_ text: String, path: String, registry: [any Scenario] = BuiltInScenarios.all) throws -> ScenarioFile {
        try read(BoundedYAML.compose(Data(text.utf8), path: path), path: path, registry: registry)
    }

    static func read(_ root: Node?, path: String, registry: [any Scenario]) throws -> ScenarioFile {
        guard let root else {
            throw ScenarioFileError(path: path, line: 1, column: 1,
                                    message: "the file is empty; it needs at least `scenario: NAME`")
        }
        return try Reader(path: path, registry: registry).read(root)
    }

    /// Reads the node tree and reports every mistake with its position, as a compiler does:
    /// each field, strategy and parameter is checked even when one before it is wrong, so
    /// one edit-and-retry fixes them all. The work stays bounded: the tree holds at most
    /// BoundedYAML.maxEntries entries, each checked once.
    struct Reader {
        let path: String
        let registry: [any Scenario]
        /// The mistakes found so far (a reference: the checks below are non-mutating).
        let mistakes = Mistakes()

        final class Mistakes {
            var found: [ScenarioFileError] = []
        }

        func fail(_ node: Node?, _ message: String) -> ScenarioFileError {
            ScenarioFileError(path: path, line: node?.mark?.line ?? 1, column: node?.mark?.column ?? 1, message: message)
        }

        /// The value `body` reads, or nil when it found a mistake, which is kept for the report.
        @discardableResult
        func attempt<T>(_ body: () throws -> T) throws -> T? {
            do {
                return try body()
            } catch let mistake as ScenarioFileError {
                mistakes.found.append(mistake)
                return nil
            }
        }

        func read(_ root: Node) throws -> ScenarioFile {
            guard let mapping = root.mapping else {
                throw fail(root, "expected a mapping of \(ScenarioFile.keys.joined(separator: ", "))")
            }
            var fields: [String: (key: Node, value: Node)] = [:]
            for (key, value) in mapping {
                guard let name = key.string, ScenarioFile.keys.contains(name) else {
                    mistakes.found.append(fail(key, "unknown key '\(BoundedYAML.excerpt(key.string ?? "?"))'; valid keys: \(ScenarioFile.keys.joined(separator: ", "))"))
                    continue
                }
                guard fields[name] == nil else {
                    mistakes.found.append(fail(key, "'\(name)' appears twice"))
                    continue
                }
                fields[name] = (key, value)
            }
            var scenario: (any Scenario)?
            if let kindNode = fields["scenario"]?.value {
                scenario = try attempt { try kind(kindNode) }
            } else {
                mistakes.found.append(fail(root, "missing `scenario:`; known scenarios: \(registry.map(\.name).joined(separator: ", "))"))
            }
            var options = RecordOptions()
            if let node = fields["name"]?.value { options.runName = try attempt { try runName(node) } }
            if let node = fields["repeats"]?.value, let repeats = try attempt({ try integer(node, "repeats", 1...10_000) }) {
                options.repeats = repeats
            }
            // Strategies and parameters are the scenario's own: without a scenario they cannot be checked.
            if let scenario {
                if let node = fields["strategies"]?.value { options.strategies = try attempt { try strategies(node, of: scenario) } }
                if let node = fields["parameters"]?.value, let parameters = try attempt({ try self.parameters(node, of: scenario) }) {
                    options.parameters = parameters
                }
            }
            if let error = ScenarioFileError(all: mistakes.found) { throw error }
            guard let scenario else { throw fail(root, "missing `scenario:`") }
            // Every field is checked above, with its position; the options are resolved once,
            // by whoever records them (`profctl record` adds its flags first).
            return ScenarioFile(path: path, scenario: scenario, options: options)
        }

        /// The scenario `scenario:` names; an empty or unknown one lists the valid kinds.
        func kind(_ node: Node) throws -> any Scenario {
            let known = registry.map(\.name).joined(separator: ", ")
            guard let scalar = node.scalar else { throw fail(node, "scenario must be one name, not a list or a mapping; known scenarios: \(known)") }
            guard !scalar.string.isEmpty else { throw fail(node, "scenario is empty; name one of the known scenarios: \(known)") }
            let kind = try text(node, "scenario")
            guard let scenario = registry.first(where: { $0.name == kind }) else {
                throw fail(node, ScenarioError.unknownScenario(kind, known: registry.map(\.name)).description)
            }
            return scenario
        }

        func text(_ node: Node, _ what: String) throws -> String {
            guard let scalar = node.scalar else { throw fail(node, "\(what) must be a word, not a list or a mapping") }
            guard !scalar.string.isEmpty else { throw fail(node, "\(what) is empty; give a word") }
            if let problem = StrictScalars.wordProblem(scalar.string, what) { throw fail(node, problem) }
            return scalar.string
        }

        func runName(_ node: Node) throws -> String {
            let name = try text(node, "name")
            if let reason = RunNames.problem(name) { throw fail(node, reason) }
            return name
        }

        func integer(_ node: Node, _ what: String, _ range: ClosedRange<Int>) throws -> Int {
            guard let scalar = node.scalar, let value = StrictScalars.integer(scalar) else {
                throw fail(node, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(StrictScalars.hint(node.scalar))")
            }
            guard range.contains(value) else {
                throw fail(node, "\(what) \(value) is out of range: expected \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }

        func strategies(_ node: Node, of scenario: any Scenario) throws -> [String] {
            let items = try list(node, "strategies")
            guard !items.isEmpty else { throw fail(node, "strategies must name at least one of: \(scenario.strategies.joined(separator: ", "))") }
            let names = try items.map { item in
                try attempt { () throws -> String in
                    let name = try text(item, "a strategy")
                    guard scenario.strategies.contains(name) else {
                        throw fail(item, "unknown strategy '\(BoundedYAML.excerpt(name))' for \(scenario.name); known: \(scenario.strategies.joined(separator: ", "))")
                    }
                    return name
                }
            }
            return names.compactMap { $0 }
        }

        func list(_ node: Node, _ what: String) throws -> [Node] {
            if let sequence = node.sequence { return Array(sequence) }
            if node.scalar != nil { return [node] }
            throw fail(node, "\(what) must be a list, like [a, b]")
        }

        func parameters(_ node: Node, of scenario: any Scenario) throws -> [String: ParameterValue] {
            guard let mapping = node.mapping else { throw fail(node, "parameters must be a mapping of name: value") }
            var values: [String: ParameterValue] = [:]
            for (key, value) in mapping {
                try attempt {
                    let name = key.string ?? "?"
                    if let problem = StrictScalars.wordProblem(name, "a parameter name") { throw fail(key, problem) }
                    guard let spec = scenario.parameters.first(where: { $0.name == name }) else {
                        throw fail(key, "\(scenario.name) has no parameter '\(BoundedYAML.excerpt(name))'; its parameters: \(scenario.parameters.map(\.name).joined(separator: ", "))")
                    }
                    guard values[name] == nil else { throw fail(key, "'\(name)' appears twice") }
                    values[name] = try parameter(value, spec)
                }
            }
            return values
        }

        func parameter(_ node: Node, _ spec: ParameterSpec) throws -> ParameterValue {
            let candidate: ParameterValue?
            switch spec.kind {
            case .integer(let range): candidate = .int(try integer(node, spec.name, range))
            case .choices: candidate = node.scalar == nil ? nil : .string(try text(node, spec.name))
            case .script(let moves):
                candidate = .strings(try list(node, spec.name).map { item in
                    let move = try text(item, "a move")
                    guard moves.contains(move) else { throw fail(item, "unknown move '\(BoundedYAML.excerpt(move))' in \(spec.name); moves: \(moves.joined(separator: ", "))") }
                    return move
                })
            }
            guard let candidate, let valid = spec.validate(candidate) else {
                throw fail(node, "\(spec.name) must be \(spec.validValues)")
            }
            return valid
        }
    }
}
