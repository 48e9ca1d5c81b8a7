import Foundation

extension SVGChart {
    /// One line per series over numeric x values on a log axis with round ticks (powers of
    /// ten, and 2 and 5 between them over few decades), for curves measured at capacities
    /// that grow by a factor: whatif's miss-ratio curves. `lines` instead labels each point
    /// with its step name, which for capacities made labels such as "994.1 KiB" under the
    /// points rather than round marks. X ticks are `text.xtick` with their value, and the
    /// chart carries `data-xunit` and `data-xlog`, so the page checks read both axes.
    package static func curves(title: String, xUnit: String, unit: String, xs: [Double], series: [Series]) -> String {
        let width = 720.0, height = 260.0, left = 70.0, top = 30.0, bottom = 200.0
        let scale = AxisScale(unit: unit, values: series.flatMap { $0.values.compactMap { $0 } })
        let xScale = AxisScale(unit: xUnit, values: xs, logarithmic: true)
        // Room on the right for half the last tick's label, centred under it.
        let right = max(30, Double(xScale.label(xScale.high).count) * 3 + 4)
        func x(_ v: Double) -> Double { left + xScale.fraction(v) * (width - left - right) }
        func y(_ v: Double) -> Double { bottom - scale.fraction(v) * (bottom - top) }
        var svg = "<svg class=\"chart\" role=\"img\" data-unit=\"\(escape(unit))\" data-xunit=\"\(escape(xUnit))\" data-xlog=\"1\""
            + " viewBox=\"0 0 \(Int(width)) \(Int(height + Double((series.count + 3) / 4) * 16))\">"
        svg += "<title>\(escape(title))</title><text x=\"\(left)\" y=\"16\" class=\"title\">\(escape(title))</text>"
        svg += axis(scale, left: left, right: width - 10, y: y)
        for tick in xScale.ticks {
            let at = x(tick)
            svg += "<line x1=\"\(at)\" x2=\"\(at)\" y1=\"\(top)\" y2=\"\(bottom)\" class=\"grid\"/>"
            svg += "<text x=\"\(at)\" y=\"\(bottom + 16)\" class=\"axis xtick\" data-value=\"\(tick)\" text-anchor=\"middle\">\(escape(xScale.label(tick)))</text>"
        }
        for (s, serie) in series.enumerated() {
            let drawn = zip(xs, serie.values).compactMap { px, v in v.map { (px, $0) } }
            svg += "<polyline points=\"\(drawn.map { "\(x($0.0)),\(y($0.1))" }.joined(separator: " "))\" class=\"line l\(s % 6)\"/>"
            for (px, v) in drawn {
                svg += "<circle cx=\"\(x(px))\" cy=\"\(y(v))\" r=\"3\" class=\"s\(s % 6)\" data-value=\"\(v)\"><title>\(escape(serie.name)) at \(escape(AxisScale.exact(px, unit: xUnit))): \(escape(AxisScale.exact(v, unit: unit)))</title></circle>"
            }
        }
        return svg + legend(series, y: bottom + 40) + "</svg>"
    }
}
