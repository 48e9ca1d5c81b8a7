import Foundation

/// Small, dependency-free SVG charts for the HTML report. Colours come from CSS
/// variables (--series-0 ... --series-5, --ink, --grid) so one chart reads in light and
/// dark mode and prints.
package enum SVGChart {
    package struct Series: Sendable {
        package let name: String
        package let values: [Double?]
        package init(name: String, values: [Double?]) {
            self.name = name
            self.values = values
        }
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func legend(_ series: [Series], y: Double) -> String {
        series.enumerated().map { index, s in
            let x = 60 + Double(index % 4) * 170, row = y + Double(index / 4) * 16
            return "<rect x=\"\(x)\" y=\"\(row - 9)\" width=\"10\" height=\"10\" class=\"s\(index % 6)\"/>"
                + "<text x=\"\(x + 14)\" y=\"\(row)\" class=\"label\">\(escape(s.name))</text>"
        }.joined()
    }

    /// The value axis's ticks, grid lines and labels (each label a `tick` with its value).
    static func axis(_ scale: AxisScale, left: Double, right: Double, y: (Double) -> Double) -> String {
        scale.ticks.map { tick in
            let at = y(tick)
            return "<line x1=\"\(left)\" x2=\"\(right)\" y1=\"\(at)\" y2=\"\(at)\" class=\"grid\"/>"
                + "<text x=\"\(left - 6)\" y=\"\(at + 4)\" class=\"axis tick\" data-value=\"\(tick)\" text-anchor=\"end\">\(escape(scale.label(tick)))</text>"
        }.joined()
    }

    /// Grouped vertical bars: one group per category, one bar per series. With `logScale`,
    /// bars are drawn on a log10 axis (for latencies that span orders of magnitude).
    package static func bars(title: String, unit: String, categories: [String], series: [Series], logScale: Bool = false) -> String {
        let width = 720.0, height = 260.0, left = 70.0, top = 30.0, bottom = 200.0
        let scale = AxisScale(unit: unit, values: series.flatMap { $0.values.compactMap { $0 } }, logarithmic: logScale)
        func y(_ v: Double) -> Double { bottom - scale.fraction(v) * (bottom - top) }
        let zero = logScale ? bottom : y(0)
        let groupWidth = (width - left - 10) / Double(max(categories.count, 1))
        let barWidth = max(2, (groupWidth - 8) / Double(max(series.count, 1)))
        var svg = "<svg class=\"chart\" role=\"img\" data-unit=\"\(escape(unit))\"\(logScale ? " data-log=\"1\"" : "") viewBox=\"0 0 \(Int(width)) \(Int(height + Double((series.count + 3) / 4) * 16))\">"
        svg += "<title>\(escape(title))</title><text x=\"\(left)\" y=\"16\" class=\"title\">\(escape(title))\(logScale ? " (log scale)" : "")</text>"
        svg += axis(scale, left: left, right: width - 10, y: y)
        for (c, category) in categories.enumerated() {
            let x0 = left + Double(c) * groupWidth + 4
            for (s, serie) in series.enumerated() {
                guard c < serie.values.count, let value = serie.values[c] else { continue }
                let top = y(value)
                let x = x0 + Double(s) * barWidth
                svg += "<rect x=\"\(x)\" y=\"\(min(top, zero))\" width=\"\(barWidth - 1)\" height=\"\(max(0.5, abs(zero - top)))\" class=\"s\(s % 6)\" data-value=\"\(value)\">"
                svg += "<title>\(escape(category)) / \(escape(serie.name)): \(escape(AxisScale.exact(value, unit: unit)))</title></rect>"
            }
            svg += "<text x=\"\(x0 + (groupWidth - 8) / 2)\" y=\"\(bottom + 16)\" class=\"axis\" text-anchor=\"middle\">\(escape(category))</text>"
        }
        svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(zero)\" y2=\"\(zero)\" class=\"baseline\"/>"
        return svg + legend(series, y: bottom + 40) + "</svg>"
    }

    /// How a label centred under its point is anchored so it stays inside the chart: at its
    /// end near the right edge, at its start near the left (a centred "ProfileCard release"
    /// under the last point ran past the edge and read "ProfileCard rele"; `lines` leaves the
    /// last name room, so this is for a name longer than the room). Widths are estimated at
    /// 6 px a character, as the thinning of step names does.
    static func anchor(_ label: String, at x: Double, width: Double) -> String {
        let half = Double(label.count) * 3
        if x + half > width { return "end" }
        if x - half < 0 { return "start" }
        return "middle"
    }

    /// One line per series over ordered steps. `kind` names the chart for the page's checks
    /// (`data-chart`: the live-bytes chart is "timeline").
    package static func lines(title: String, unit: String, steps: [String], series: [Series], kind: String? = nil) -> String {
        let width = 720.0, height = 260.0, left = 70.0, top = 30.0, bottom = 200.0
        let scale = AxisScale(unit: unit, values: series.flatMap { $0.values.compactMap { $0 } })
        func y(_ v: Double) -> Double { bottom - scale.fraction(v) * (bottom - top) }
        // Room on the right for half the last step's name, centred under its point (at 6 px
        // a character, as the thinning below estimates).
        let right = max(30, Double(steps.last?.count ?? 0) * 3 + 4)
        let step = (width - left - right) / Double(max(steps.count - 1, 1))
        var svg = "<svg class=\"chart\" role=\"img\"\(kind.map { " data-chart=\"\(escape($0))\"" } ?? "") data-unit=\"\(escape(unit))\" viewBox=\"0 0 \(Int(width)) \(Int(height + Double((series.count + 3) / 4) * 16))\">"
        svg += "<title>\(escape(title))</title><text x=\"\(left)\" y=\"16\" class=\"title\">\(escape(title))</text>"
        svg += axis(scale, left: left, right: width - 10, y: y)
        // Step names that would overlap are thinned out (every one keeps its tooltip on the points).
        let every = max(1, Int((Double(steps.map(\.count).max() ?? 1) * 6 + 8) / max(step, 1)) + 1)
        for (i, name) in steps.enumerated() where i % every == 0 {
            svg += "<text x=\"\(left + Double(i) * step)\" y=\"\(bottom + 16)\" class=\"axis\" text-anchor=\"\(anchor(name, at: left + Double(i) * step, width: width))\">\(escape(name))</text>"
        }
        for (s, serie) in series.enumerated() {
            let points = serie.values.enumerated().compactMap { i, v in v.map { "\(left + Double(i) * step),\(y($0))" } }
            svg += "<polyline points=\"\(points.joined(separator: " "))\" class=\"line l\(s % 6)\"/>"
            for (i, v) in serie.values.enumerated() {
                guard let v else { continue }
                svg += "<circle cx=\"\(left + Double(i) * step)\" cy=\"\(y(v))\" r=\"3\" class=\"s\(s % 6)\" data-value=\"\(v)\"><title>\(escape(serie.name)) after \(escape(i < steps.count ? steps[i] : "")): \(escape(AxisScale.exact(v, unit: unit)))</title></circle>"
            }
        }
        return svg + legend(series, y: bottom + 40) + "</svg>"
    }
}
