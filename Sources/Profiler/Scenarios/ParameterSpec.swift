import Foundation
import ProfilerRecording

/// One parameter a scenario takes: its name, what it means, its default and what values
/// are valid. Checked before anything is recorded, from the CLI and from scenario files.
public struct ParameterSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        case integer(ClosedRange<Int>)
        case choices([String])
        /// A list whose every element is one of the choices (a script of moves, say).
        case script([String])
    }

    package let name: String
    package let summary: String
    package let kind: Kind
    package let defaultValue: ParameterValue

    public init(_ name: String, _ summary: String, _ kind: Kind, default defaultValue: ParameterValue) {
        self.name = name
        self.summary = summary
        self.kind = kind
        self.defaultValue = defaultValue
    }

    /// What values are valid, for error messages.
    package var validValues: String {
        switch kind {
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choices(let choices): "one of \(choices.joined(separator: ", "))"
        case .script(let moves): "a list of \(moves.joined(separator: ", "))"
        }
    }

    /// Checks a value; returns it normalised (a lone string becomes a one-step script).
    package func validate(_ value: ParameterValue) -> ParameterValue? {
        switch (kind, value) {
        case (.integer(let range), .int(let v)) where range.contains(v): return value
        case (.choices(let choices), .string(let v)) where choices.contains(v): return value
        case (.script(let moves), .strings(let v)) where !v.isEmpty && v.allSatisfy(moves.contains): return value
        case (.script(let moves), .string(let v)) where moves.contains(v): return .strings([v])
        default: return nil
        }
    }

    /// Parses a value given as text (`--set name=value`) and checks it.
    package func parse(_ text: String) -> ParameterValue? {
        read(text).flatMap(validate)
    }

    /// The value text stands for, unchecked (`Scenario.resolve` checks it, once): nil when
    /// it cannot be one of this kind at all (not a whole number). Comma-separated for scripts.
    package func read(_ text: String) -> ParameterValue? {
        switch kind {
        case .integer: Int(text).map(ParameterValue.int)
        case .choices: .string(text)
        case .script: .strings(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }
}
