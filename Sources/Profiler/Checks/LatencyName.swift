import ProfilerModel
import ProfilerRecording

/// The name of a latency metric, `create_ns@build`: the median duration of one event
/// kind's events in one step. A latency is judged by a statistical test and every other
/// metric exactly, and the name is how a `--metric`, a tolerance or a budget says which:
/// the marker is spelled here alone.
package struct LatencyName: Sendable, Hashable {
    /// The event kind timed (see `kinds`).
    package let kind: String
    package let step: String

    /// The event kinds whose durations are metrics: building a component and realizing one.
    package static let kinds: [EventKind] = [.create, .realize]

    static let marker = "_ns@"

    /// `column IN (?, ?)` over `kinds`, with its parameters: the events a query reads latencies of.
    static func kindFilter(_ column: String) -> (sql: String, parameters: [SQLValue]) {
        ("\(column) IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))", kinds.map { .text($0.rawValue) })
    }

    package init(kind: String, step: String) {
        self.kind = kind
        self.step = step
    }

    /// Parses a metric name; nil for any name that is not a latency's.
    package init?(_ name: String) {
        guard let range = name.range(of: Self.marker) else { return nil }
        self.init(kind: String(name[..<range.lowerBound]), step: String(name[range.upperBound...]))
    }

    package var name: String { kind + Self.marker + step }

    /// Whether `name` names a latency (an exact metric otherwise).
    package static func isLatency(_ name: String) -> Bool { name.contains(marker) }
}
