/// One column of a report view, declared with the facts `check`, `trend`, the HTML report
/// and docs/schema.md need: its unit, which direction is better, whether it is measured or
/// computed from other columns, and whether `check` gates it.
public struct ReportColumn: Sendable, Equatable, Codable {
    /// What a column's numbers count.
    public enum Unit: String, Sendable, Codable {
        /// A name: a component, a strategy.
        case label
        case bytes, count, percent, ratio, nanoseconds, milliseconds
    }

    package let name: String
    /// What the column means, for docs/schema.md.
    package let summary: String
    package let unit: Unit
    /// Which direction is better (nil for labels).
    package let polarity: Polarity?
    /// Measured (primary) or computed from the columns next to it (derived).
    package let role: MetricRole
    /// Whether `check` treats it as a metric. Inputs (instances, panels) and figures that
    /// vary from run to run by nature (timings) are shown, not gated.
    package let gated: Bool

    package init(_ name: String, _ unit: Unit, _ summary: String, polarity: Polarity?, role: MetricRole, gated: Bool) {
        self.name = name
        self.summary = summary
        self.unit = unit
        self.polarity = unit == .label ? nil : polarity
        self.role = role
        self.gated = gated && unit != .label
    }

    /// A name that identifies a row (component, strategy): never a metric.
    public static func label(_ name: String, _ summary: String) -> ReportColumn {
        ReportColumn(name, .label, summary, polarity: nil, role: .primary, gated: false)
    }

    /// A measurement gated against the baseline: smaller is better unless said otherwise.
    public static func measured(_ name: String, _ unit: Unit, _ summary: String,
                                polarity: Polarity = .smallerIsBetter) -> ReportColumn {
        ReportColumn(name, unit, summary, polarity: polarity, role: .primary, gated: true)
    }

    /// A figure computed from the measured ones: shown as context, budgets may name it,
    /// never gated against a baseline. Larger is better unless said otherwise (savings).
    public static func derived(_ name: String, _ unit: Unit, _ summary: String,
                               polarity: Polarity = .largerIsBetter) -> ReportColumn {
        ReportColumn(name, unit, summary, polarity: polarity, role: .derived, gated: true)
    }

    /// Shown and never a metric: an input, or a figure that varies between identical runs.
    public static func shown(_ name: String, _ unit: Unit, _ summary: String) -> ReportColumn {
        ReportColumn(name, unit, summary, polarity: nil, role: .primary, gated: false)
    }
}
