import Foundation
import Testing
import Profiler
@testable import ProfilerQueries

/// Passes every statement to the store, counting those that read a report view.
final class ReportViewCounter: SQLRowSource {
    let base: any SQLRowSource
    private(set) var reportViewReads = 0

    init(_ base: any SQLRowSource) { self.base = base }

    var storeName: String { base.storeName }

    func hasRelation(_ name: String) throws -> Bool { try base.hasRelation(name) }

    func table(_ sql: String, _ values: [SQLValue]) throws -> ResultTable {
        // Report views are named *_report (ReportDeclaration.problem).
        if sql.range(of: #"FROM \w+_report\b"#, options: .regularExpression) != nil { reportViewReads += 1 }
        return try base.table(sql, values)
    }
}

/// `trend` over many runs: a report view is computed over the whole history before it is
/// filtered by run, so the series must read each view once for all the runs, and still
/// hold exactly what `check` reads from each run on its own.
@Suite("trend over a history")
struct TrendHistoryTests {
    /// Two scenarios with reports of their own, interleaved, their figures moving.
    static func history() throws -> TemporaryDatabase {
        let temp = try TemporaryDatabase()
        for round in 0..<4 {
            try recordOnOwnThread(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 3 + round % 2))
            try recordOnOwnThread(ImageCacheScenario(), database: temp.path,
                                  options: RecordOptions(parameters: ["placements": .int(3), "icon_side": .int(round < 2 ? 36 : 40)]))
        }
        return temp
    }

    @Test("every metric's series read each report view once, not once per run")
    func oneReadPerView() throws {
        let temp = try Self.history()
        for scenario in ["lazy-container", "image-cache"] {
            let db = ReportViewCounter(try ProfileStore.openForReading(path: temp.path))
            let (runs, series) = try Trend.series(scenario: scenario, metric: nil, component: nil, strategy: nil, limit: 100, in: db)
            #expect(runs.count == 4)
            #expect(!series.isEmpty)
            #expect(db.reportViewReads == 1, "\(scenario): \(db.reportViewReads) reads of its report view for \(runs.count) runs")
        }
    }

    @Test("the series hold, run by run and in the same order, the metrics check reads from each run alone")
    func sameAsRunByRun() throws {
        let temp = try Self.history()
        let db = try ProfileStore.openForReading(path: temp.path)
        for scenario in ["lazy-container", "image-cache"] {
            let (runs, series) = try Trend.series(scenario: scenario, metric: nil, component: nil, strategy: nil, limit: 100, in: db)
            // The reference: each run's metrics on their own (report columns, allocations,
            // latencies), series in the order they first come, one metric's together.
            var keys: [MetricKey] = []
            var perRun: [[MetricKey: Metric]] = []
            for run in runs {
                var metrics: [MetricKey: Metric] = [:]
                for metric in try MetricCatalog.metrics(of: run, in: db) {
                    let key = MetricKey(scenario: "", component: metric.key.component, strategy: metric.key.strategy, name: metric.key.name)
                    if metrics[key] == nil { metrics[key] = metric }
                    if !keys.contains(key) { keys.append(key) }
                }
                perRun.append(metrics)
            }
            let names = keys.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let ordered = names.flatMap { name in keys.filter { $0.name == name } }
            #expect(series.map { MetricKey(scenario: "", component: $0.component, strategy: $0.strategy, name: $0.metric) } == ordered)
            if scenario == "lazy-container" {
                #expect(series.contains { $0.metric == "allocations_per_instance" } && series.contains(where: \.isLatency))
            }
            for line in series {
                let key = MetricKey(scenario: "", component: line.component, strategy: line.strategy, name: line.metric)
                #expect(line.points.map(\.run) == runs)
                #expect(line.points.map(\.value) == perRun.map { $0[key]?.value }, "\(scenario) \(key)")
                #expect(line.points.map(\.slack) == perRun.map { $0[key]?.slack?.amount ?? 0 }, "\(scenario) \(key)")
            }
        }
    }

    @Test("the reports of many runs, read together, are each run's report read alone")
    func reportsTogether() throws {
        let temp = try Self.history()
        let db = try ProfileStore.openForReading(path: temp.path)
        let catalog = try BuiltInScenarios.reportCatalog(in: db)
        // Both scenarios' runs, interleaved: two views, each read once.
        let runs = try RunQueries.list(db, limit: 100).reversed().map { $0 }
        #expect(runs.count == 8)
        for measure in [ByteMeasure.requested, .usable] {
            let counter = ReportViewCounter(db)
            let together = try RunReport.load(runs, measure: measure, catalog: catalog, from: counter)
            #expect(counter.reportViewReads == 2)
            let alone = try runs.map { try RunReport.load($0, measure: measure, catalog: catalog, from: db) }
            #expect(together.map(\.run) == alone.map(\.run))
            #expect(together.map(\.table) == alone.map(\.table))
            #expect(together.map(\.declaration.name) == alone.map(\.declaration.name))
            #expect(together.map(\.measure) == alone.map(\.measure))
            #expect(together.allSatisfy { !$0.table.rows.isEmpty })
        }
    }

    @Test("E-Divisive's distance sums, four τ at a time, are the per-τ loop's to the last bit")
    func distanceSumsBitForBit() {
        var random = SeededRandom(seed: 42)
        for length in 4...41 {
            // Heavy-tailed values, so the order of additions shows in the last bits.
            let values = (0..<(length + 3)).map { _ in 1 / (Double(random.next() % 1_000_000) / 1_000_000 + 1e-3) }
            let segment = 3..<(3 + length)
            for minSegment in [2, 3] where length >= 2 * minSegment {
                let taus = segment.lowerBound..<(segment.upperBound - minSegment)
                let sums = EDivisive.distanceSums(values, in: segment, taus: taus)
                for tau in taus {
                    var left = 0.0, right = 0.0
                    for i in segment.lowerBound..<tau { left += abs(values[tau] - values[i]) }
                    for j in (tau + 1)..<segment.upperBound { right += abs(values[tau] - values[j]) }
                    #expect(sums.toLeft[tau - taus.lowerBound].bitPattern == left.bitPattern, "length \(length), τ \(tau)")
                    #expect(sums.toRight[tau - taus.lowerBound].bitPattern == right.bitPattern, "length \(length), τ \(tau)")
                }
            }
        }
    }
}
