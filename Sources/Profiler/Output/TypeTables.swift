import ProfilerModel

/// The HTML report's tables of Swift types: per (component, strategy, kind), the types
/// with the most requested bytes, one row for the rest, the remainder and the total, so a
/// reader sees which of their types fill the bytes and that the rows add up. The figures
/// are the `types` view's (what `profctl types` prints), with per-instance columns beside.
package enum TypeTables {
    /// Types shown per group before the rest are folded into one row.
    package static let top = 8

    package static let style = """
        table.types tbody { break-inside: avoid; }
        table.types tr.group th { font-size: 12px; padding-top: 12px; border-bottom: 1px solid var(--ink); }
        table.types tr.group .meta { font-weight: 400; }
        table.types tr.other td, table.types tr.remainder td { color: var(--muted); font-style: italic; }
        table.types tr.total td { font-weight: 600; }
        p.note code, p.types-meta code { font-size: 0.9em; white-space: nowrap; }
        p.note { border-left: 3px solid var(--series-1); padding: 4px 8px; }
        """

    static let columns = ["type", "objects", "objects_per_instance", "requested_bytes", "bytes_per_instance",
                          "live_objects", "live_requested_bytes"]

    /// The section's part about types: the tables, or a note saying why there are none and
    /// how to get them.
    package static func render(_ types: ReportTypes) -> String {
        var html = "<h3>Which Swift types fill the bytes</h3>\n"
        switch types {
        case .notRecorded(let command):
            return html + "<p class=\"note types-missing\">This run was recorded without types, so its bytes are not "
                + "attributed to Swift types. <code>\(SVGChart.escape(command))</code> records a run that has them; its report "
                + "then shows the types per component and strategy here (docs/cli.md, \"types\").</p>\n"
        case .recorded(let rows, let everyType):
            guard !rows.isEmpty else {
                return html + "<p class=\"meta\">Recorded with types; its measured instances allocated nothing.</p>\n"
            }
            html += "<p class=\"meta types-meta\">Per component, strategy and event kind, up to \(top) types, most requested bytes first "
                + "(demangled, module-qualified), the other types in one row, and <i>\(SVGChart.escape(ObjectTypeCounts.remainder))</i>: "
                + "the blocks no object claims. Each group adds up to its instances' allocations (its last row, where it has several). Per instance: to two decimals. Live: still allocated when "
                + "the instance's measurement ended. Every type: <code>\(SVGChart.escape(everyType))</code>.</p>\n"
            html += "<table class=\"types\"><thead><tr>" + columns.enumerated().map { index, name in
                "<th\(index > 0 ? " class=\"n\"" : "") title=\"\(SVGChart.escape(name))\">\(HTMLReport.header(name))</th>"
            }.joined() + "</tr></thead>\n"
            for group in TypeGroup.groups(rows, top: top) { html += render(group) }
            return html + "</table>\n"
        }
    }

    static func render(_ group: TypeGroup) -> String {
        let instances = group.instances == 1 ? "1 instance" : "\(group.instances) instances"
        var html = "<tbody data-component=\"\(SVGChart.escape(group.component))\" data-strategy=\"\(SVGChart.escape(group.strategy))\" "
            + "data-kind=\"\(SVGChart.escape(group.kind))\"><tr class=\"group\"><th colspan=\"\(columns.count)\" scope=\"rowgroup\">"
            + "\(SVGChart.escape(group.component)) · \(SVGChart.escape(group.strategy)) · \(SVGChart.escape(group.kind)) "
            + "<span class=\"meta\">\(instances)</span></th></tr>\n"
        for row in group.top { html += self.row(SVGChart.escape(row.type), row.counts, group, class: "type") }
        if group.otherTypes > 0 {
            let label = group.otherTypes == 1 ? "1 other type" : "\(group.otherTypes) other types"
            html += row(label, group.others, group, class: "other")
        }
        if let remainder = group.remainder {
            html += row(SVGChart.escape(ObjectTypeCounts.remainder), remainder, group, class: "remainder")
        }
        // One row is its own total already.
        if group.top.count + (group.otherTypes > 0 ? 1 : 0) + (group.remainder == nil ? 0 : 1) > 1 {
            html += row("all allocations", group.total, group, class: "total")
        }
        return html + "</tbody>\n"
    }

    static func row(_ label: String, _ counts: TypeCounts, _ group: TypeGroup, class kind: String) -> String {
        // Per instance to two decimals: 30.37 reads where 30.366666666666667 does not.
        func perInstance(_ count: Int) -> SQLValue {
            group.perInstance(count).map { SQLValue.real(($0 * 100).rounded() / 100) } ?? .null
        }
        let values: [SQLValue] = [.init(counts.objects), perInstance(counts.objects), .init(counts.requestedBytes),
                                  perInstance(counts.requestedBytes), .init(counts.liveObjects), .init(counts.liveRequestedBytes)]
        return "<tr class=\"\(kind)\"><td>\(label)</td>"
            + values.map { "<td class=\"n\">\(SVGChart.escape($0.displayText))</td>" }.joined() + "</tr>\n"
    }
}
