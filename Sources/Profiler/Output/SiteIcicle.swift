import ProfilerModel

/// Allocation sites as icicle charts (SVG, self-contained: no scripts, no fonts): one per
/// (component, strategy, kind), the call tree of the user's frames inside the measured
/// region from the outermost at the top, each box as wide as the bytes allocated under it.
/// Every box has a tooltip with its full name and bytes.
public enum SiteIcicle {
    static let width = 760.0, rowHeight = 18.0

    /// One chart per group of `rows`, in their order (at most `limit` groups).
    public static func charts(_ rows: [SiteRow], stacks: [Int64: SiteStack], limit: Int = 24) -> [String] {
        let groups = SiteCallTree.groups(rows.filter { $0.counts.requestedBytes > 0 }, stacks: stacks, limit: limit) {
            $0.requestedBytes
        }
        return groups.map { svg(title: $0.title, root: $0.root) }
    }

    static func depth(_ node: SiteCallTree) -> Int { 1 + (node.children.values.map(depth).max() ?? 0) }

    static func svg(title: String, root: SiteCallTree) -> String {
        let rows = depth(root)
        let height = 28 + Double(rows) * rowHeight
        var out = "<svg class=\"chart icicle\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">"
        out += "<title>\(SVGChart.escape(title)): \(root.bytes) B allocated</title>"
        out += "<text class=\"title\" x=\"0\" y=\"16\">\(SVGChart.escape(title)): \(root.bytes) B allocated (width: requested bytes)</text>"
        func box(_ name: String, _ node: SiteCallTree, x: Double, w: Double, level: Int) {
            let y = 24 + Double(level) * rowHeight
            out += "<g><title>\(SVGChart.escape(name)): \(node.bytes) B</title>"
            out += "<rect class=\"s\(level % 6)\" x=\(attr(x)) y=\(attr(y)) width=\(attr(max(w - 1, 0.5))) height=\(attr(rowHeight - 2)) rx=\"2\"/>"
            // About 6 px a character at 10 px: a label only where it fits, shortened.
            let fits = Int((w - 6) / 6)
            if fits >= 4 {
                let label = short(name)
                let text = label.count <= fits ? label : String(label.prefix(fits - 1)) + "…"
                out += "<text class=\"label\" x=\(attr(x + 3)) y=\(attr(y + rowHeight - 6))>\(SVGChart.escape(text))</text>"
            }
            out += "</g>"
            var cursor = x
            for childName in node.order {
                guard let child = node.children[childName], node.bytes > 0 else { continue }
                let cw = w * Double(child.bytes) / Double(node.bytes)
                box(childName, child, x: cursor, w: cw, level: level + 1)
                cursor += cw
            }
        }
        box("all", root, x: 0, w: width, level: 0)
        return out + "</svg>"
    }

    static func attr(_ v: Double) -> String { "\"" + String(format: "%.1f", v) + "\"" }

    /// A function name without its signature: "Profiler.Label.init(text: ...) -> Label" -> "Profiler.Label.init".
    package static func short(_ name: String) -> String {
        guard let paren = name.firstIndex(of: "("), !name.hasPrefix("(") else { return name }
        return String(name[..<paren])
    }

    /// A page of its own (`profctl sites --format html`): the charts, then the table.
    public static func page(_ rows: [SiteRow], stacks: [Int64: SiteStack], runID: String, table: ResultTable) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>profctl sites</title><style>"
        html += """
            :root { color-scheme: light dark; --bg: #fff; --ink: #1d1d1f; --muted: #6e6e73; --grid: #d2d2d7; }
            @media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --ink: #f5f5f7; --muted: #a1a1a6; --grid: #3a3a3c; } }
            body { background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 780px; padding: 0 1rem; }
            svg.chart { width: 100%; height: auto; margin: 0.5rem 0 1rem; }
            svg .title { font-size: 13px; font-weight: 600; fill: var(--ink); } svg .label { font-size: 10px; fill: #1d1d1f; }
            .s0 { fill: #9ecbff; } .s1 { fill: #ffd08a; } .s2 { fill: #9be3a8; } .s3 { fill: #dcb3f5; } .s4 { fill: #ffa8ba; } .s5 { fill: #b3ecff; }
            table { border-collapse: collapse; font-size: 12px; display: block; overflow-x: auto; }
            th, td { padding: 3px 6px; border-bottom: 1px solid var(--grid); text-align: left; white-space: nowrap; }
            """
        html += "</style></head><body>\n<h1>Allocation sites</h1>\n<p>run \(SVGChart.escape(runID))</p>\n"
        html += charts(rows, stacks: stacks).joined(separator: "\n") + "\n"
        html += HTMLReport.table(table)
        return html + "</body></html>\n"
    }
}
