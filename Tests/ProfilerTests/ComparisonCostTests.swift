import Foundation
import Testing
import Profiler
import ProfilerComparison
import ProfilerModel
import ProfilerOutputs
import ProfilerQueries
import ProfilerScenarios
import ProfilerStore

/// What one instance keeps: the same bytes whichever way it was built.
private final class Record {
    let bytes: [UInt8]
    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A comparison whose two ways keep the same bytes and differ only in what building cost:
/// what a user saw comparing JSONDecoder with Yams (equal retained bytes; the difference
/// was in allocations and temporaries), made exact. `Copied` reads its 256 bytes out of a
/// 1,024-byte scratch buffer that is freed before the instance is done: one allocation
/// more, and a temporary of the scratch's size.
@Suite("Comparison reports: what building cost beside what it keeps")
struct ComparisonCostTests {
    static let decoders = ComponentComparison(name: "decoders", summary: "the same record built directly and through a scratch buffer",
                                              components: [
                                                  .component("Direct") { Record(bytes: [UInt8](repeating: 7, count: 256)) },
                                                  .component("Copied") {
                                                      let scratch = [UInt8](repeating: 7, count: 1024)
                                                      return Record(bytes: Array(scratch[0..<256]))
                                                  },
                                              ], strategies: [.eager])

    static func report(_ scenario: String, measure: ByteMeasure, in path: String) throws -> RunReport {
        let db = try ProfileStore.openForReading(path: path)
        let run = try RunQueries.resolve("latest", scenario: scenario, in: db)
        return try RunReport.load(run, measure: measure, catalog: try BuiltInScenarios.reportCatalog(in: db), from: db)
    }

    static func rows(_ report: RunReport) -> [String: [String: SQLValue]] {
        Dictionary(uniqueKeysWithValues: report.table.rows.map { row in
            let fields = Dictionary(zip(report.table.columns, row), uniquingKeysWith: { a, _ in a })
            return ("\(fields["component"]?.string ?? "?")/\(fields["strategy"]?.string ?? "?")", fields)
        })
    }

    @Test("equal retained bytes: allocations and temporary bytes per instance show the difference, beside bytes_per_instance")
    func sameBytesDifferentCost() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.decoders, database: temp.path, options: RecordOptions(instances: 50))
        let report = try Self.report("decoders", measure: .requested, in: temp.path)
        let columns = report.table.columns
        let retained = try #require(columns.firstIndex(of: "bytes_per_instance"))
        #expect(Array(columns[retained...].prefix(4)) == ["bytes_per_instance", "peak_bytes_per_instance", "allocations_per_instance",
                                                          "temporary_bytes_per_instance"])
        let rows = Self.rows(report)
        let direct = try #require(rows["Direct/eager"]), copied = try #require(rows["Copied/eager"])
        #expect(direct["bytes_per_instance"] == copied["bytes_per_instance"], "both keep one Record and its 256 bytes")
        let directAllocations = try #require(direct["allocations_per_instance"]?.double)
        #expect(copied["allocations_per_instance"]?.double == directAllocations + 1, "the scratch buffer")
        #expect(direct["temporary_bytes_per_instance"]?.double == 0)
        // The scratch: an array header (32 bytes on 64-bit Linux) and its 1,024 elements.
        #expect(copied["temporary_bytes_per_instance"]?.double == 1056)
        // The same figures as check's allocations_per_instance and the temporaries view.
        let db = try ProfileStore.openForReading(path: temp.path)
        let viewed = try db.scalar("""
            SELECT SUM(temporary_requested_bytes) / 50.0 FROM temporaries
            WHERE component = 'Copied' AND kind IN ('create', 'realize')
            """)?.double
        #expect(viewed == 1056)
    }

    /// Direct frees nothing while it builds: its peak is what it keeps. Copied holds the
    /// scratch (1,056 bytes) beside the copy it keeps: its peak is that much above what it
    /// keeps, the same figure stored per event, summed in rollups and gated by check.
    @Test("peak bytes per instance: what building held at most, beside what it keeps")
    func peakBesideRetained() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.decoders, database: temp.path, options: RecordOptions(instances: 50))
        let rows = Self.rows(try Self.report("decoders", measure: .requested, in: temp.path))
        let direct = try #require(rows["Direct/eager"]), copied = try #require(rows["Copied/eager"])
        let kept = try #require(direct["bytes_per_instance"]?.double)
        #expect(direct["peak_bytes_per_instance"]?.double == kept)
        #expect(copied["peak_bytes_per_instance"]?.double == kept + 1056)
        let db = try ProfileStore.openForReading(path: temp.path)
        for (component, peak) in [("Direct", Int64(kept)), ("Copied", Int64(kept) + 1056)] {
            let events = try db.rows("""
                SELECT min(peak_requested_bytes), max(peak_requested_bytes) FROM event_log
                WHERE kind = 'create' AND component = ?
                """, [.text(component)])
            #expect(events.first?.map(\.int64) == [peak, peak], "\(component): every create event's peak")
            #expect(try db.scalar("SELECT peak_requested_bytes FROM rollups WHERE component = ?", [.text(component)])?.int64 == peak * 50)
        }
        for row in Self.rows(try Self.report("decoders", measure: .usable, in: temp.path)).values {
            #expect(row["peak_bytes_per_instance"] == .null)
        }
    }

    @Test("the page draws the difference: allocations and temporary bytes per instance as charts beside bytes per instance")
    func pageDrawsTheDifference() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.decoders, database: temp.path, options: RecordOptions(instances: 20))
        let report = try Self.report("decoders", measure: .requested, in: temp.path)
        let page = HTMLReport.render([HTMLReport.Section(report: report, timeline: [])], generatedAt: "now")
        let titles = page.components(separatedBy: "<svg class=\"chart\"").dropFirst().compactMap { chart in
            chart.range(of: "<title>").flatMap { start in chart.range(of: "</title>").map { String(chart[start.upperBound..<$0.lowerBound]) } }
        }
        // Savings against eager are 0 everywhere in an eager-only run: no chart of zeros.
        #expect(titles.starts(with: ["Bytes per instance", "Allocations per instance",
                                     "Temporary bytes per instance (freed while it was built)"]), "\(titles)")
        #expect(!page.contains("break_even_pct"))
    }

    @Test("a run without a lazy strategy has no break_even_pct column; one with lazy keeps it")
    func breakEvenOnlyWithLazy() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.decoders, database: temp.path, options: RecordOptions(instances: 10))
        for measure in [ByteMeasure.requested, .usable] {
            let report = try Self.report("decoders", measure: measure, in: temp.path)
            #expect(!report.table.columns.contains("break_even_pct"), "\(measure): \(report.table.columns)")
            #expect(report.table.rows.allSatisfy { $0.count == report.table.columns.count })
        }
        let lazy = ComponentComparison(name: "lazy-decoders", summary: "the same, lazily", components: Self.decoders.components,
                                       strategies: [.eager, .lazy])
        try recordOnOwnThread(lazy, database: temp.path, options: RecordOptions(instances: 10))
        let withLazy = try Self.report("lazy-decoders", measure: .requested, in: temp.path)
        #expect(withLazy.table.columns.contains("break_even_pct"))
        #expect(Self.rows(withLazy)["Direct/lazy"]?["break_even_pct"]?.double ?? 0 > 0)
    }

    @Test("in usable bytes the temporaries are NULL (the hooks keep their requested size only), allocations the same")
    func usableMeasure() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.decoders, database: temp.path, options: RecordOptions(instances: 10))
        let requested = Self.rows(try Self.report("decoders", measure: .requested, in: temp.path))
        let usable = Self.rows(try Self.report("decoders", measure: .usable, in: temp.path))
        for (key, row) in usable {
            #expect(row["temporary_bytes_per_instance"] == .null, "\(key)")
            #expect(row["allocations_per_instance"] == requested[key]?["allocations_per_instance"], "\(key)")
        }
    }
}
