/// One chart of a report in the HTML page: which columns it draws and how. Declared with
/// the report, so a new report gets charts without touching the renderer.
public struct ReportChart: Sendable, Equatable, Codable {
    package enum Layout: String, Sendable, Codable {
        /// Strategies along the axis, one series per column.
        case columnsPerStrategy
        /// Components along the axis, one series per strategy, the (one) column as the value.
        case strategiesPerComponent
        /// The columns along the axis (phases), one series per strategy.
        case strategiesPerColumn
    }

    /// `{baseline}` stands for the run's baseline strategy.
    package let title: String
    package let unit: String
    package let layout: Layout
    package let columns: [String]
    package let logScale: Bool

    package init(_ title: String, unit: String, _ layout: Layout, _ columns: [String], logScale: Bool = false) {
        self.title = title
        self.unit = unit
        self.layout = layout
        self.columns = columns
        self.logScale = logScale
    }

    /// Strategies along the axis, one bar per column.
    public static func perStrategy(_ title: String, unit: String, _ columns: [String], logScale: Bool = false) -> ReportChart {
        ReportChart(title, unit: unit, .columnsPerStrategy, columns, logScale: logScale)
    }

    /// The title with the run's baseline strategy filled in.
    package func title(baseline: String) -> String {
        title.replacingOccurrences(of: "{baseline}", with: baseline)
    }
}
