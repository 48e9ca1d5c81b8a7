import Foundation

/// Small, dependency-free SVG charts for the HTML report. Colours come from CSS
/// variables (--series-0 ... --series-5, --ink, --grid) so one chart reads in light and
/// dark mode and prints.
public enum SVGChart {
    public struct Series: Sendable {
        public let name: String
        public let values: [Double?]
        public init(name: String, values: [Double?]) {
            self.name = name
            self.values = values
        }
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// 1234567 -> "1.2 M", 0.5 -> "0.5".
    package static func short(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return String(format: "%.1f G", value / 1e9) }
        if magnitude >= 1e6 { return String(format: "%.1f M", value / 1e6) }
        if magnitude >= 1e4 { return String(format: "%.1f k", value / 1e3) }
        return value.rounded() == value ? String(Int64(value)) : String(format: "%.2f", value)
    }

    static func legend(_ series: [Series], y: Double) -> String {
        series.enumerated().map { index, s in
            let x = 60 + Double(index % 4) * 170, row = y + Double(index / 4) * 16
            return "<rect x=\"\(x)\" y=\"\(row - 9)\" width=\"10\" height=\"10\" class=\"s\(index % 6)\"/>"
                + "<text x=\"\(x + 14)\" y=\"\(row)\" class=\"label\">\(escape(s.name))</text>"
        }.joined()
    }

    /// Grouped vertical bars: one group per category, one bar per series. With `logScale`,
    /// bars are drawn on a log10 axis (for latencies that span orders of magnitude).
    public static func bars(title: String, unit: String, categories: [String], series: [Series], logScale: Bool = false) -> String {
        let width = 720.0, height = 260.0, left = 60.0, top = 30.0, bottom = 200.0
        let values = series.flatMap { $0.values.compactMap { $0 } }
        let high = max(values.max() ?? 1, 0), low = min(values.min() ?? 0, 0)
        func scale(_ v: Double) -> Double {
            if logScale { return bottom - log10(max(v, 1)) / log10(max(high, 10)) * (bottom - top) }
            let span = high - low == 0 ? 1 : high - low
            return bottom - (v - low) / span * (bottom - top)
        }
        let zero = logScale ? bottom : scale(0)
        let groupWidth = (width - left - 10) / Double(max(categories.count, 1))
        let barWidth = max(2, (groupWidth - 8) / Double(max(series.count, 1)))
        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height + Double((series.count + 3) / 4) * 16))\">"
        svg += "<title>\(escape(title))</title><text x=\"\(left)\" y=\"16\" class=\"title\">\(escape(title)) (\(escape(unit))\(logScale ? ", log scale" : ""))</text>"
        for tick in 0...4 {
            let v = logScale ? pow(10, log10(max(high, 10)) * Double(tick) / 4) : low + (high - low) * Double(tick) / 4
            let y = scale(v)
            svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" class=\"axis\" text-anchor=\"end\">\(short(v))</text>"
        }
        for (c, category) in categories.enumerated() {
            let x0 = left + Double(c) * groupWidth + 4
            for (s, serie) in series.enumerated() {
                guard c < serie.values.count, let value = serie.values[c] else { continue }
                let y = scale(value)
                let x = x0 + Double(s) * barWidth
                svg += "<rect x=\"\(x)\" y=\"\(min(y, zero))\" width=\"\(barWidth - 1)\" height=\"\(max(0.5, abs(zero - y)))\" class=\"s\(s % 6)\">"
                svg += "<title>\(escape(category)) / \(escape(serie.name)): \(short(value)) \(escape(unit))</title></rect>"
            }
            svg += "<text x=\"\(x0 + (groupWidth - 8) / 2)\" y=\"\(bottom + 16)\" class=\"axis\" text-anchor=\"middle\">\(escape(category))</text>"
        }
        svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(zero)\" y2=\"\(zero)\" class=\"baseline\"/>"
        return svg + legend(series, y: bottom + 40) + "</svg>"
    }

    /// One line per series over ordered steps.
    public static func lines(title: String, unit: String, steps: [String], series: [Series]) -> String {
        let width = 720.0, height = 260.0, left = 60.0, top = 30.0, bottom = 200.0
        let high = max(series.flatMap { $0.values.compactMap { $0 } }.max() ?? 1, 1)
        let step = (width - left - 30) / Double(max(steps.count - 1, 1))
        func point(_ i: Int, _ v: Double) -> String { "\(left + Double(i) * step),\(bottom - v / high * (bottom - top))" }
        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height + Double((series.count + 3) / 4) * 16))\">"
        svg += "<title>\(escape(title))</title><text x=\"\(left)\" y=\"16\" class=\"title\">\(escape(title)) (\(escape(unit)))</text>"
        for tick in 0...4 {
            let v = high * Double(tick) / 4, y = bottom - v / high * (bottom - top)
            svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" class=\"axis\" text-anchor=\"end\">\(short(v))</text>"
        }
        for (i, name) in steps.enumerated() {
            svg += "<text x=\"\(left + Double(i) * step)\" y=\"\(bottom + 16)\" class=\"axis\" text-anchor=\"middle\">\(escape(name))</text>"
        }
        for (s, serie) in series.enumerated() {
            let points = serie.values.enumerated().compactMap { i, v in v.map { point(i, $0) } }
            svg += "<polyline points=\"\(points.joined(separator: " "))\" class=\"line l\(s % 6)\"/>"
            for (i, v) in serie.values.enumerated() {
                guard let v else { continue }
                let xy = point(i, v).split(separator: ",")
                svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" class=\"s\(s % 6)\"><title>\(escape(serie.name)) after \(escape(steps[i])): \(short(v)) \(escape(unit))</title></circle>"
            }
        }
        return svg + legend(series, y: bottom + 40) + "</svg>"
    }
}
