import Foundation
import Testing

/// `report --format csv` over runs of several scenarios: one table a CSV reader loads in
/// one call, with the scenario and run of every row.
@Suite("report --format csv over several runs")
struct MultiRunCSVTests {
    @Test("one header, scenario and run_id first, the same number of fields in every row; pandas reads it when installed")
    func oneTable() throws {
        let folder = try TemporaryFolder()
        let recorded = try ProfctlProcess.run(["record", "lazy-container", "image-cache", "--instances", "20", "--quiet"], in: folder.url)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let report = try ProfctlProcess.run(["report", "--format", "csv", "-o", "all.csv"], in: folder.url)
        try #require(report.status == 0, "\(report.stderr)")
        let runs = recorded.stdout.split(whereSeparator: \.isNewline).map(String.init)
        // Python's csv module: the whole file as one table.
        let check = """
            import csv, sys
            rows = list(csv.reader(open('all.csv', newline='')))
            header, body = rows[0], rows[1:]
            assert header[:2] == ['scenario', 'run_id'], header
            assert all(len(r) == len(header) for r in body), [len(r) for r in body]
            assert sum(1 for r in rows if r[:2] == ['scenario', 'run_id']) == 1
            print(len(header), len(body), ','.join(sorted({r[0] for r in body})), ','.join(sorted({r[1] for r in body})))
            try:
                import pandas
            except ImportError:
                sys.exit(0)
            frame = pandas.read_csv('all.csv')
            assert list(frame.columns) == header and len(frame) == len(body)
            print('pandas', frame.shape)
            """
        let python = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/python3"), ["-c", check], in: folder.url)
        #expect(python.status == 0, "\(python.stderr)")
        let words = python.stdout.split(whereSeparator: { $0 == " " || $0.isNewline })
        #expect(words.count >= 4)
        if words.count >= 4 {
            #expect(words[2] == "image-cache,lazy-container")
            #expect(Set(words[3].split(separator: ",").map(String.init)) == Set(runs))
        }
        // Savings columns and cache columns side by side, empty where a report lacks one.
        let csv = try String(contentsOf: folder.url.appendingPathComponent("all.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("scenario,run_id,component,strategy,instances,bytes_per_instance,"))
        #expect(csv.contains("hits,misses"))
        if !python.stdout.contains("pandas") {
            print("note: pandas is not installed; the CSV was checked with Python's csv module only")
        }
    }

    @Test("one run's CSV is its report table as before, without the added columns")
    func oneRun() throws {
        let folder = try TemporaryFolder()
        let recorded = try ProfctlProcess.run(["record", "lazy-container", "--instances", "20", "--quiet"], in: folder.url)
        try #require(recorded.status == 0, "\(recorded.stderr)")
        let report = try ProfctlProcess.run(["report", "--format", "csv"], in: folder.url)
        #expect(report.stdout.hasPrefix("component,strategy,instances,bytes_per_instance,peak_bytes_per_instance,allocations_per_instance,temporary_bytes_per_instance,"
                                        + "baseline_strategy,saved_bytes,savings_pct,break_even_pct,retains_per_instance,releases_per_instance\r\n"),
                "\(report.stdout)")
    }
}
