import ProfilerModel

/// Which rows of a run's sites or types to read: all of them, or one component's,
/// strategy's, event kind's or (types only) type's. `sites` and `types` take the same
/// options and `check` narrows sites the same way, so they share this one filter.
package struct CaptureFilter: Sendable, Equatable {
    package var component: String?
    package var strategy: String?
    package var kind: String?
    /// A type's full name; the sites have no such column (``RunCapture/validate(_:runIDs:optionPrefix:in:)`` refuses it).
    package var type: String?

    package init(component: String? = nil, strategy: String? = nil, kind: String? = nil, type: String? = nil) {
        self.component = component
        self.strategy = strategy
        self.kind = kind
        self.type = type
    }

    /// Each name with the view column it is matched against, in the order the options are listed.
    var fields: [(column: String, value: String?)] {
        [("component", component), ("strategy", strategy), ("kind", kind), ("type", type)]
    }

    /// The SQL condition that keeps the rows matching every name given, over `columns`,
    /// with its parameters numbered from `firstParameter` on, and their values to bind.
    package func condition(columns: [String], firstParameter: Int) -> (sql: String, bindings: [SQLValue]) {
        let matched = fields.filter { columns.contains($0.column) }
        // `column` is one of the fixed names above, never user input; the values are bound.
        let sql = matched.enumerated().map { index, field in
            let p = "?\(firstParameter + index)"
            return "(CAST(\(p) AS TEXT) IS NULL OR \(field.column) = \(p))"
        }.joined(separator: " AND ")
        return (sql, matched.map { SQLValue($0.value) })
    }
}
