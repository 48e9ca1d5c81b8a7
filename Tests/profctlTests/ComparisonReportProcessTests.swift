import Foundation
import Testing

/// What a person sees in the report of their own comparison: beside the bytes each
/// instance keeps, what building it cost (allocations, temporary bytes), and no
/// break-even column when nothing was lazy. Read from the page profctl writes, as
/// Chromium shows it: the table's headers and the charts' titles.
@Suite("A comparison's report shows what building cost")
struct ComparisonReportProcessTests {
    /// The table's column names in order (each header's title attribute holds the name whole).
    static func headers(_ html: String) -> [String] {
        guard let table = html.range(of: "<table"), let end = html.range(of: "</thead>", range: table.upperBound..<html.endIndex) else { return [] }
        return html[table.upperBound..<end.lowerBound].components(separatedBy: "<th").dropFirst().compactMap { cell in
            guard let start = cell.range(of: "title=\""), let close = cell.range(of: "\"", range: start.upperBound..<cell.endIndex) else { return nil }
            return String(cell[start.upperBound..<close.lowerBound])
        }
    }

    static func chartTitles(_ html: String) -> [String] {
        html.components(separatedBy: "<svg class=\"chart\"").dropFirst().compactMap { chart in
            guard let start = chart.range(of: "<title>"), let end = chart.range(of: "</title>") else { return nil }
            return String(chart[start.upperBound..<end.lowerBound])
        }
    }

    @Test("eager and cached only: allocations and temporary bytes per instance after bytes_per_instance, no break_even_pct, in the page and the table")
    func withoutLazy() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                            ["--db", "c.sqlite", "--instances", "50", "--strategies", "eager,cached", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let page = try ProfctlProcess.run(["report", "--db", "c.sqlite", "--format", "html", "-o", "r.html"], in: folder.url)
        #expect(page.status == 0, "\(page.stderr)")
        let html = try String(contentsOf: folder.url.appendingPathComponent("r.html"), encoding: .utf8)
        let columns = Self.headers(html)
        #expect(columns == ["component", "strategy", "instances", "bytes_per_instance", "peak_bytes_per_instance", "allocations_per_instance",
                            "temporary_bytes_per_instance", "baseline_strategy", "saved_bytes", "savings_pct",
                            "retains_per_instance", "releases_per_instance"], "\(columns)")
        let titles = Self.chartTitles(html)
        #expect(titles.contains("Allocations per instance"), "\(titles)")
        // Avatar and ProfileCard free nothing while built: a chart of zeros says nothing the
        // table's column does not (ComparisonCostTests draws one with temporaries).
        #expect(!titles.contains { $0.hasPrefix("Temporary bytes") }, "\(titles)")

        let table = try ProfctlProcess.run(["report", "--db", "c.sqlite"], in: folder.url)
        let header = table.stdout.split(separator: "\n").first { $0.hasPrefix("component") } ?? ""
        #expect(header.split(separator: " ").map(String.init) == columns, "\(table.stdout)")

        // In usable bytes the temporaries are not kept: the column reads '-', and no empty chart is drawn.
        let usable = try ProfctlProcess.run(["report", "--db", "c.sqlite", "--format", "html", "--bytes", "usable", "-o", "u.html"], in: folder.url)
        #expect(usable.status == 0, "\(usable.stderr)")
        let usableHTML = try String(contentsOf: folder.url.appendingPathComponent("u.html"), encoding: .utf8)
        #expect(Self.chartTitles(usableHTML).contains("Allocations per instance"))
        #expect(!Self.chartTitles(usableHTML).contains { $0.hasPrefix("Temporary bytes") }, "\(Self.chartTitles(usableHTML))")
    }

    @Test("the four strategies: break_even_pct stays, after the cost columns")
    func withLazy() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(executable: OwnComponentsExample.binary, ["--db", "c.sqlite", "--instances", "20", "--quiet"],
                                       in: folder.url).status == 0)
        let csv = try ProfctlProcess.run(["report", "--db", "c.sqlite", "--format", "csv"], in: folder.url)
        #expect(csv.stdout.hasPrefix("component,strategy,instances,bytes_per_instance,peak_bytes_per_instance,allocations_per_instance,temporary_bytes_per_instance,"
                                     + "baseline_strategy,saved_bytes,savings_pct,break_even_pct,retains_per_instance,releases_per_instance\r\n"),
                "\(csv.stdout)")
    }

    @Test("merge copies what building cost: the merged file reports the same temporaries and size classes as its input")
    func mergeKeepsLifetimes() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                       ["--db", "a.sqlite", "--instances", "20", "--strategies", "eager", "--quiet"], in: folder.url).status == 0)
        #expect(try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite"], in: folder.url).status == 0)
        for query in ["SELECT * FROM temporaries ORDER BY component, strategy, kind",
                      "SELECT * FROM size_classes ORDER BY component, strategy, size_class",
                      "SELECT * FROM savings_report ORDER BY component, strategy, bytes_measure"] {
            let source = try ProfctlProcess.run(["query", "--db", "a.sqlite", "--format", "csv", query], in: folder.url)
            let merged = try ProfctlProcess.run(["query", "--db", "all.sqlite", "--format", "csv", query], in: folder.url)
            #expect(source.status == 0 && merged.status == 0, "\(source.stderr) \(merged.stderr)")
            #expect(source.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count > 1, "\(query): no rows in the input")
            #expect(merged.stdout == source.stdout, "\(query)")
        }
    }
}
