import ProfilerSupport

/// A scenario's report: the SQL view `profctl report` reads, the query that defines it,
/// its columns (unit, polarity, measured or derived, gated) and its charts.
///
/// The view is created from the declaration when a database is opened for writing
/// (ReportViews, like a repeatable migration with its own checksum), and the
/// declaration is stored next to it (`report_views`), so `report`, `check`, `trend` and
/// the HTML page treat a user's own report exactly as a built-in one, without its Swift.
public struct ReportDeclaration: Sendable, Equatable, Codable {
    /// What runs record in `runs.report`; scenarios' views select their runs by it.
    package let name: String
    /// The view's name: lowercase letters, digits and `_`, ending in `_report`.
    package let view: String
    /// One sentence for docs/schema.md.
    package let summary: String
    /// The SELECT that defines the view. It must have `run_id` first, then the declared
    /// columns in order; `scenario` and `bytes_measure` may come after `run_id`.
    package let query: String
    package let columns: [ReportColumn]
    package let charts: [ReportChart]
    /// True when the view has a row per byte measure (`bytes_measure`: requested, usable).
    package let byMeasure: Bool

    public init(name: String, view: String, summary: String, query: String, columns: [ReportColumn],
                charts: [ReportChart] = [], byMeasure: Bool = false) {
        self.name = name
        self.view = view
        self.summary = summary
        self.query = query
        self.columns = columns
        self.charts = charts
        self.byMeasure = byMeasure
    }

    /// Columns every report view may have that the run itself already says.
    package static let runColumns: Set<String> = ["run_id", "scenario", "bytes_measure"]

    package func column(_ name: String) -> ReportColumn? {
        columns.first { $0.name == name }
    }

    /// The declaration as stored in `report_views.declaration`: JSON with sorted keys.
    package func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// FNV-1a 64 of the stored text: a changed query, column or chart recreates the view.
    package func checksum() throws -> String {
        FNV1a.hex(try storedText())
    }

    /// Why this declaration cannot become a view, or nil.
    package var problem: String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
        if name.isEmpty { return "a report needs a name" }
        if !view.hasSuffix("_report") || !view.allSatisfy(allowed.contains) {
            return "report \(name): view name '\(view)' must be lowercase letters, digits and _, ending in _report"
        }
        // SQLite reserves these names for itself and refuses to create the view.
        if view.hasPrefix("sqlite_") { return "report \(name): view name '\(view)' cannot start with sqlite_, which SQLite reserves" }
        if Set(columns.map(\.name)).count != columns.count { return "report \(name): a column is declared twice" }
        return nil
    }
}

import Foundation

extension ReportDeclaration {
    /// Bytes per instance and savings against the baseline strategy, per component: the
    /// report of every scenario that declares none of its own (lazy-container, users'
    /// components), plus the break-even realization rate on the container-only `lazy` rows,
    /// and what building an instance cost beyond what it keeps (allocations, temporaries):
    /// two ways can keep the same bytes and differ only there.
    package static let savings = ReportDeclaration(
        name: "savings", view: "savings_report",
        summary: """
            The report of every scenario that declares none of its own: `savings_by_measure` plus `break_even_pct` on the container-only `lazy` rows: lazy wins \
            while fewer than this share of containers are ever realized (`1 - container / eager`, in %). \
            Where the container costs as much as the component or more, lazy never wins and the column is \
            NULL (never a negative share; since schema version 3), so `break_even_pct > x` stays false in \
            SQL; profctl's reports print `never` there, in every format, and leave the column out of a run without \
            a `lazy` strategy. Beside the retained bytes, what building an instance cost: `peak_bytes_per_instance` \
            (since schema version 18), `allocations_per_instance` and `temporary_bytes_per_instance` (since schema version 17).
            """,
        query: """
            SELECT run_id, scenario, bytes_measure, component, strategy, instances, bytes_per_instance, peak_bytes_per_instance,
                   allocations_per_instance, temporary_bytes_per_instance, baseline_strategy, saved_bytes, savings_pct,
                   CASE WHEN strategy = 'lazy' AND savings_pct > 0 THEN savings_pct END AS break_even_pct,
                   retains_per_instance, releases_per_instance
            FROM savings_by_measure
            ORDER BY started_at, run_id, ordinal
            """,
        columns: [
            .label("component", "the component measured"),
            .label("strategy", "how it was built"),
            .shown("instances", .count, "instances per repeat"),
            .measured("bytes_per_instance", .bytes, "live bytes each instance holds (its create and realize events)"),
            .shown("peak_bytes_per_instance", .bytes,
                   "the highest live bytes those events reached while building it, summed per instance (check gates it exactly); NULL in usable bytes (not kept) and for runs before schema version 18"),
            .shown("allocations_per_instance", .count,
                   "malloc calls in an instance's create and realize events, kept or freed again (check gates it, with a slack)"),
            .shown("temporary_bytes_per_instance", .bytes,
                   "requested bytes of the blocks those events freed before they ended; NULL in usable bytes (not kept) and for runs before schema version 8"),
            .label("baseline_strategy", "what savings are measured against"),
            .derived("saved_bytes", .bytes, "baseline bytes per instance minus this one"),
            .derived("savings_pct", .percent, "100 * saved / baseline"),
            .derived("break_even_pct", .percent, "lazy rows: the realized share below which lazy wins; NULL (never) where it cannot"),
            .measured("retains_per_instance", .count, "Swift retains each instance's create and realize events made; NULL: not counted"),
            .measured("releases_per_instance", .count, "Swift releases each instance's create and realize events made; NULL: not counted"),
        ],
        charts: [
            ReportChart("Bytes per instance", unit: "bytes", .strategiesPerComponent, ["bytes_per_instance"]),
            ReportChart("Savings against {baseline}", unit: "%", .strategiesPerComponent, ["savings_pct"]),
            ReportChart("Allocations per instance", unit: "count", .strategiesPerComponent, ["allocations_per_instance"]),
            ReportChart("Temporary bytes per instance (freed while it was built)", unit: "bytes",
                        .strategiesPerComponent, ["temporary_bytes_per_instance"]),
        ],
        byMeasure: true)
}
