/// A name a user typed (an option, or a field of a budgets file) that names nothing.
public struct UnknownNameError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of name: "scenario", "metric", "component", "strategy".
    package let kind: String
    package let name: String
    /// Where it was typed: `--scenario`, or `budgets.yaml:4`.
    package let origin: String
    /// Whose names they are ("in lazy-container"), or empty.
    package let scope: String
    package let known: [String]
    /// A sentence that fits better than the list alone, or nil.
    package let hint: String?

    package init(kind: String, name: String, origin: String, scope: String = "", known: [String], hint: String? = nil) {
        self.kind = kind
        self.name = name
        self.origin = origin
        self.scope = scope
        self.known = known
        self.hint = hint
    }

    public var description: String {
        let scoped = scope.isEmpty ? "" : " \(scope)"
        let head = "\(origin): no \(kind) named '\(name)'\(scoped)"
        // With nothing known, a hint says why ("its report has no per-component rows");
        // "none recorded yet" beside it would contradict it.
        if known.isEmpty, let hint { return head + ". " + hint }
        let list = known.isEmpty ? "none recorded yet" : known.joined(separator: ", ")
        return head + "; known: \(list)" + (hint.map { ". \($0)" } ?? "")
    }
}
