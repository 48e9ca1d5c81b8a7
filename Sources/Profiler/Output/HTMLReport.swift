import Foundation
import ProfilerModel

/// One self-contained HTML page (no fonts, no network; a small inline script only for the
/// allocation sites' icicles, which read without it) with each run's
/// report table, charts that fit its scenario, and its live bytes over the steps.
/// Light and dark mode follow the reader's setting; charts keep together when printed.
package enum HTMLReport {
    package struct Section: Sendable {
        package let report: RunReport
        package let timeline: [TimelinePoint]
        /// Its allocations by size class (SizeClassChart); empty draws nothing.
        package var sizeClasses: [SizeClassPoint] = []
        /// Icicle charts of its allocation sites (SiteIcicle.charts), for runs recorded
        /// with --sites; empty draws nothing.
        package var siteCharts: [String] = []
        /// Miss-ratio curves of a cache run's request trace (WhatIfPage.charts); empty draws nothing.
        package var whatIfCharts: [String] = []
        /// Its Swift types (TypeTables), or why it has none; nil draws nothing.
        package var types: ReportTypes?
        package init(report: RunReport, timeline: [TimelinePoint]) {
            self.report = report
            self.timeline = timeline
        }
    }

    package static let style = base + tableStyle

    /// Tables that fit the window and the printed page (A4 and Letter, portrait).
    package static let tableStyle = """
        table { border-collapse: collapse; font-size: 12px; margin: 1rem 0; max-width: 100%; }
        th, td { padding: 3px 6px; border-bottom: 1px solid var(--grid); text-align: left; vertical-align: bottom; }
        th { font-weight: 600; font-size: 11px; hyphens: none; }
        td { overflow-wrap: anywhere; }
        td.n, td.none { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.name { white-space: nowrap; }
        th.n { text-align: right; }
        @page { margin: 12mm; }
        @media print { body { margin: 0; max-width: none; padding: 0; font-size: 10px; } table { font-size: 8px; } th { font-size: 7.5px; }
          th, td { padding: 2px 3px; } tr { break-inside: avoid; } svg.chart { max-width: 640px; } }
        """

    static let base = """
        :root { color-scheme: light dark; --bg: #ffffff; --ink: #1d1d1f; --muted: #6e6e73; --grid: #d2d2d7;
          --series-0: #0a84ff; --series-1: #ff9f0a; --series-2: #30b350; --series-3: #bf5af2; --series-4: #ff375f; --series-5: #64d2ff; }
        @media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --ink: #f5f5f7; --muted: #a1a1a6; --grid: #3a3a3c; } }
        body { background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; }
        h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2.5rem; border-bottom: 1px solid var(--grid); }
        .meta { color: var(--muted); }
        svg.chart { width: 100%; max-width: 900px; display: block; height: auto; margin: 0.5rem 0 1rem; break-inside: avoid; }
        svg .title { font-size: 13px; font-weight: 600; fill: var(--ink); }
        svg .axis, svg .label { font-size: 10px; fill: var(--muted); }
        svg .label { fill: var(--ink); }
        svg .grid { stroke: var(--grid); stroke-width: 0.5; }
        svg .baseline { stroke: var(--ink); stroke-width: 1; }
        svg .line { fill: none; stroke-width: 2; }
        .s0 { fill: var(--series-0); } .s1 { fill: var(--series-1); } .s2 { fill: var(--series-2); }
        .s3 { fill: var(--series-3); } .s4 { fill: var(--series-4); } .s5 { fill: var(--series-5); }
        .l0 { stroke: var(--series-0); } .l1 { stroke: var(--series-1); } .l2 { stroke: var(--series-2); }
        .l3 { stroke: var(--series-3); } .l4 { stroke: var(--series-4); } .l5 { stroke: var(--series-5); }
        @media print { section { break-before: page; } section:first-of-type { break-before: auto; } }
        """

    package static func render(_ sections: [Section], generatedAt: String) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>profctl report</title>"
        let icicles = sections.contains { !$0.siteCharts.isEmpty }, types = sections.contains { $0.types != nil }
        html += "<style>\(style)\(icicles ? SiteIcicle.style : "")\(types ? TypeTables.style : "")</style></head><body>\n<h1>profctl report</h1>\n"
        html += "<p class=\"meta\">\(sections.count) run(s), generated \(SVGChart.escape(generatedAt)). Every figure is derived from recorded events; bytes are requested bytes unless a caption says otherwise.</p>\n"
        if icicles { html += SiteIcicle.tools }
        for section in sections { html += render(section) }
        return html + (icicles ? SiteIcicle.script : "") + "</body></html>\n"
    }

    static func render(_ section: Section) -> String {
        let report = section.report, run = report.run
        var html = "<section data-run=\"\(SVGChart.escape(run.runID))\" data-scenario=\"\(SVGChart.escape(run.scenario))\">\n<h2>\(SVGChart.escape(run.scenario))</h2>\n"
        html += "<p class=\"meta\">run \(SVGChart.escape(run.runID)), \(SVGChart.escape(run.startedAt)), \(SVGChart.escape(run.buildConfiguration)) build"
        html += run.gitCommit.map { ", commit \(SVGChart.escape(String($0.prefix(12))))" } ?? ""
        html += report.measure.map { ", \($0.rawValue) bytes against \(SVGChart.escape(run.baselineStrategy))" } ?? ""
        html += "</p>\n"
        html += charts(report).joined(separator: "\n") + "\n"
        html += timelineChart(section.timeline) + "\n"
        html += SizeClassChart.render(section.sizeClasses, strategyOrder: labels(report.table, "strategy"))
        if !section.siteCharts.isEmpty {
            html += "<h3>Where the bytes come from: allocation sites</h3>\n" + section.siteCharts.joined(separator: "\n") + "\n"
        }
        if !section.whatIfCharts.isEmpty {
            html += "<h3>What if: other cache sizes and policies (profctl whatif)</h3>\n" + section.whatIfCharts.joined(separator: "\n") + "\n"
        }
        html += table(report.table)
        html += section.types.map { TypeTables.render($0) } ?? ""
        return html + "</section>\n"
    }

    /// A table that fits the page: headers break after their underscores (a 14-column
    /// report fits 1200 px, and an A4 or Letter page when printed), numbers stay on one
    /// line, and so does a name (a strategy such as `lazy-realized` would break at its
    /// hyphen); long names and text wrap anywhere rather than pushing columns off the page.
    package static func table(_ table: ResultTable) -> String {
        let numeric = table.columns.indices.map { index in
            !table.rows.isEmpty && table.rows.allSatisfy { index < $0.count && ($0[index].isNumeric || $0[index].displayText == "-" || $0[index].displayText.isEmpty) }
        }
        var html = "<table><thead><tr>" + zip(table.columns, numeric).map { name, isNumber in
            "<th\(isNumber ? " class=\"n\"" : "") title=\"\(SVGChart.escape(name))\">\(header(name))</th>"
        }.joined() + "</tr></thead><tbody>"
        for row in table.rows {
            // A number column's "-" (NULL) sits where its numbers do.
            html += "<tr>" + row.enumerated().map { index, value in
                let right = value.isNumeric || index < numeric.count && numeric[index]
                let style = right ? (value.isNumeric ? "n" : "n none") : isName(value.displayText) ? "name" : nil
                return "<td\(style.map { " class=\"\($0)\"" } ?? "")>\(SVGChart.escape(value.displayText))</td>"
            }.joined() + "</tr>"
        }
        return html + "</tbody></table>\n"
    }

    /// A name a user types (a strategy, component or scenario: one word of at most 32
    /// characters, hyphens and dots included), kept on one line; longer text (a type's
    /// generic name, a run id, a note) may wrap.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 32 && !text.contains(where: \.isWhitespace)
    }

    /// A column name with a line-break opportunity after each underscore (the header's
    /// title attribute keeps the name whole, to hover over and to search the page's source).
    static func header(_ name: String) -> String {
        SVGChart.escape(name).replacingOccurrences(of: "_", with: "_<wbr>")
    }

    /// The values of `column` per row, and the row labels from `labelColumn`.
    static func column(_ table: ResultTable, _ column: String) -> [Double?] {
        guard let index = table.columns.firstIndex(of: column) else { return [] }
        return table.rows.map { $0[index].double }
    }

    static func labels(_ table: ResultTable, _ column: String) -> [String] {
        guard let index = table.columns.firstIndex(of: column) else { return [] }
        return table.rows.map { $0[index].displayText }
    }

    /// Strategies as categories, the given columns as series.
    static func byStrategy(_ table: ResultTable, _ title: String, _ unit: String, _ columns: [String], logScale: Bool = false) -> String {
        SVGChart.bars(title: title, unit: unit, categories: labels(table, "strategy"),
                      series: columns.map { SVGChart.Series(name: $0.replacingOccurrences(of: "_", with: " "), values: column(table, $0)) },
                      logScale: logScale)
    }

    /// Components as categories, strategies as series, one column as the value.
    static func byComponent(_ table: ResultTable, _ title: String, _ unit: String, _ value: String) -> String {
        let components = labels(table, "component"), strategies = labels(table, "strategy"), values = column(table, value)
        let categories = components.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let series = strategies.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.map { strategy in
            SVGChart.Series(name: strategy, values: categories.map { component in
                zip(zip(components, strategies), values).first { $0.0 == (component, strategy) }?.1 ?? nil
            })
        }
        return SVGChart.bars(title: title, unit: unit, categories: categories, series: series)
    }

    /// Columns (phases) as categories, strategies as series.
    static func byColumn(_ table: ResultTable, _ title: String, _ unit: String, _ columns: [String], logScale: Bool) -> String {
        let categories = columns.map { $0.replacingOccurrences(of: "_ns", with: "").replacingOccurrences(of: "_", with: " ") }
        return SVGChart.bars(title: title, unit: unit, categories: categories,
                             series: labels(table, "strategy").enumerated().map { index, strategy in
                                 SVGChart.Series(name: strategy, values: columns.map { column(table, $0)[safe: index] ?? nil })
                             }, logScale: logScale)
    }

    /// The charts the report declares, in order, leaving out one with nothing to draw: no
    /// figure at all (temporaries in usable bytes, or in a run recorded before they were
    /// kept: an empty frame would read as zero), or zero everywhere (a frame with an axis
    /// of 0 to 5 B and no bar; the table's column says 0).
    static func charts(_ report: RunReport) -> [String] {
        let t = report.table
        let drawable = report.declaration.charts.filter { chart in
            chart.columns.contains { column(t, $0).contains { ($0 ?? 0) != 0 } }
        }
        return drawable.map { chart in
            let title = chart.title(baseline: report.run.baselineStrategy)
            switch chart.layout {
            case .columnsPerStrategy:
                return byStrategy(t, title, chart.unit, chart.columns, logScale: chart.logScale)
            case .strategiesPerComponent:
                return byComponent(t, title, chart.unit, chart.columns.first ?? "")
            case .strategiesPerColumn:
                return byColumn(t, title, chart.unit, chart.columns, logScale: chart.logScale)
            }
        }
    }

    static func timelineChart(_ points: [TimelinePoint]) -> String {
        guard !points.isEmpty else { return "" }
        let strategies = points.reduce(into: [String]()) { if !$0.contains($1.strategy) { $0.append($1.strategy) } }
        let perStrategy = strategies.map { s in points.filter { $0.strategy == s } }
        let longest = perStrategy.max { $0.count < $1.count } ?? []
        return SVGChart.lines(title: "Live bytes after each step", unit: "bytes", steps: longest.map(\.step),
                              series: zip(strategies, perStrategy).map { strategy, points in
                                  SVGChart.Series(name: strategy, values: points.map { $0.liveBytes })
                              }, kind: "timeline")
    }
}

private extension Array {
    /// The element at `index`, or nil past the end (a column missing from an old view).
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
