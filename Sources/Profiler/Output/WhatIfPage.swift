import ProfilerModel

/// `profctl whatif --format html`: the miss-ratio curves as charts (hit ratio, and the
/// most bytes held, against capacity, one line per policy) above the table. Capacities
/// are spaced evenly as drawn, so the grid's equal factors make a log-scale axis; a policy
/// without a capacity is drawn flat, at its one value, for reference.
public enum WhatIfPage {
    public static func render(_ table: ResultTable, title: String) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>profctl whatif</title>"
        html += "<style>\(HTMLReport.style)</style></head><body>\n<h1>profctl whatif</h1>\n"
        html += "<p class=\"meta\">\(SVGChart.escape(title))</p>\n"
        html += charts(table).joined(separator: "\n") + "\n"
        return html + HTMLReport.table(table) + "</body></html>\n"
    }

    /// The two charts, or none when the table has no capacities (only policies without one).
    public static func charts(_ table: ResultTable) -> [String] {
        guard let policyColumn = table.columns.firstIndex(of: "policy"), let capacityColumn = table.columns.firstIndex(of: "capacity"),
              let unitColumn = table.columns.firstIndex(of: "unit"), let ratioColumn = table.columns.firstIndex(of: "hit_ratio"),
              let bytesColumn = table.columns.firstIndex(of: "peak_resident_bytes") else { return [] }
        var capacities: [Int64] = []
        for row in table.rows { if let c = row[capacityColumn].int64, !capacities.contains(c) { capacities.append(c) } }
        capacities.sort()
        guard !capacities.isEmpty else { return [] }
        let unit = table.rows.lazy.compactMap { $0[unitColumn].string }.first ?? "bytes"
        var policies: [String] = []
        for row in table.rows { if let p = row[policyColumn].string, !policies.contains(p) { policies.append(p) } }
        func series(_ column: Int) -> [SVGChart.Series] {
            policies.map { policy in
                let rows = table.rows.filter { $0[policyColumn].string == policy }
                let flat = rows.count == 1 && rows[0][capacityColumn].int64 == nil
                return SVGChart.Series(name: flat ? "\(policy) (no capacity)" : policy, values: capacities.map { capacity in
                    (flat ? rows.first : rows.first { $0[capacityColumn].int64 == capacity })?[column].double
                })
            }
        }
        let steps = capacities.map { unit == "bytes" ? SVGChart.short(Double($0)) : String($0) }
        return [
            SVGChart.lines(title: "Hit ratio against capacity (\(unit), log scale)", unit: "hit ratio", steps: steps, series: series(ratioColumn)),
            SVGChart.lines(title: "Most bytes held against capacity (\(unit), log scale)", unit: "bytes", steps: steps, series: series(bytesColumn)),
        ]
    }
}
