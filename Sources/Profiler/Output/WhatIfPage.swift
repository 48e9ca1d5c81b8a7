import ProfilerModel

/// `profctl whatif --format html`: the miss-ratio curves as charts (hit ratio, and the
/// most bytes held, against capacity on a log axis with round ticks, one line per policy)
/// above the table; the policies without a capacity as bars beside them.
package enum WhatIfPage {
    package static func render(_ table: ResultTable, title: String) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>profctl whatif</title>"
        html += "<style>\(HTMLReport.style)</style></head><body>\n<h1>profctl whatif</h1>\n"
        html += "<p class=\"meta\">\(SVGChart.escape(title))</p>\n"
        html += charts(table).joined(separator: "\n") + "\n"
        return html + HTMLReport.table(table) + "</body></html>\n"
    }

    /// The curves of the policies with a capacity (hit ratio, and the most bytes held), then
    /// the hit ratios of those without one as bars: each line keeps a colour of its own.
    package static func charts(_ table: ResultTable) -> [String] {
        guard let policyColumn = table.columns.firstIndex(of: "policy"), let capacityColumn = table.columns.firstIndex(of: "capacity"),
              let unitColumn = table.columns.firstIndex(of: "unit"), let ratioColumn = table.columns.firstIndex(of: "hit_ratio"),
              let bytesColumn = table.columns.firstIndex(of: "peak_resident_bytes") else { return [] }
        var capacities: [Int64] = []
        for row in table.rows { if let c = row[capacityColumn].int64, !capacities.contains(c) { capacities.append(c) } }
        capacities.sort()
        let unit = table.rows.lazy.compactMap { $0[unitColumn].string }.first ?? "bytes"
        var bounded: [String] = [], unbounded: [(String, Double?)] = []
        for row in table.rows {
            guard let policy = row[policyColumn].string else { continue }
            if row[capacityColumn].int64 == nil {
                unbounded.append((policy, row[ratioColumn].double.map { $0 * 100 }))
            } else if !bounded.contains(policy) {
                bounded.append(policy)
            }
        }
        var charts: [String] = []
        if !capacities.isEmpty && !bounded.isEmpty {
            // Hit ratios drawn as percentages: an axis in one short unit ("20 %").
            func series(_ column: Int, scale: Double = 1) -> [SVGChart.Series] {
                bounded.map { policy in
                    SVGChart.Series(name: policy, values: capacities.map { capacity in
                        table.rows.first { $0[policyColumn].string == policy && $0[capacityColumn].int64 == capacity }?[column].double
                            .map { $0 * scale }
                    })
                }
            }
            let xs = capacities.map(Double.init), xUnit = unit == "bytes" ? "bytes" : "count"
            charts.append(SVGChart.curves(title: "Hit ratio by capacity in \(unit), log scale", xUnit: xUnit, unit: "%",
                                          xs: xs, series: series(ratioColumn, scale: 100)))
            charts.append(SVGChart.curves(title: "Most bytes held by capacity in \(unit), log scale", xUnit: xUnit, unit: "bytes",
                                          xs: xs, series: series(bytesColumn)))
        }
        if !unbounded.isEmpty {
            charts.append(SVGChart.bars(title: "Hit ratio of the policies without a capacity", unit: "%",
                                        categories: unbounded.map(\.0), series: [SVGChart.Series(name: "hit ratio", values: unbounded.map(\.1))]))
        }
        return charts
    }
}
