import Foundation
import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

/// The report declarations are the one source of the report views, and what they name
/// exists: every step and metric a view selects on is declared by a scenario, and every
/// declared column comes out of its view.
@Suite("Report declarations")
struct ReportDeclarationTests {
    /// The string literals a query compares `column` with: `column = 'x'` and `column IN ('x', 'y')`.
    static func literals(after column: String, in query: String) -> Set<String> {
        var found: Set<String> = []
        let patterns = ["\\b\(column)\\s*=\\s*'([^']*)'", "\\b\(column)\\s+IN\\s*\\(([^)]*)\\)"]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in regex.matches(in: query, range: NSRange(query.startIndex..., in: query)) {
                guard let range = Range(match.range(at: 1), in: query) else { continue }
                for part in query[range].split(separator: ",") {
                    found.insert(part.trimmingCharacters(in: CharacterSet(charactersIn: " '")))
                }
            }
        }
        return found
    }

    @Test("the literal finder sees = and IN")
    func literalFinder() {
        #expect(Self.literals(after: "step", in: "WHEN step IN ('a', 'b') AND x.step = 'c' AND steps = 'no'") == ["a", "b", "c"])
    }

    @Test("every step and metric a report view names is declared by a scenario that uses the report")
    func viewsNameDeclaredNames() throws {
        for scenario in BuiltInScenarios.all {
            let query = scenario.report.query
            for step in Self.literals(after: "step", in: query) {
                #expect(scenario.steps.contains(step), "\(scenario.report.view) names step '\(step)', which \(scenario.name) does not declare")
            }
            for metric in Self.literals(after: "name", in: query) {
                #expect(scenario.metrics.contains(metric), "\(scenario.report.view) names metric '\(metric)', which \(scenario.name) does not declare")
            }
            for report in Self.literals(after: "report", in: query) {
                #expect(report == scenario.report.name, "\(scenario.report.view) selects runs of report '\(report)', not its own")
            }
        }
    }

    @Test("a view naming an undeclared step is caught")
    func undeclaredStepCaught() {
        let query = "SELECT run_id FROM step_summary WHERE step = 'shwo' AND report = 'image-cache'"
        let declared = Set(ImageCacheScenario().steps)
        #expect(!Self.literals(after: "step", in: query).isSubset(of: declared))
    }

    @Test("every declared column is produced by its view, in order, and the view produces no undeclared one")
    func columnsProduced() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path, views: BuiltInScenarios.reportViews())
        for report in BuiltInScenarios.reports {
            let produced = try db.table("SELECT * FROM \(report.view) LIMIT 0", []).columns
                .filter { !ReportDeclaration.runColumns.contains($0) }
            #expect(produced == report.columns.map(\.name), "\(report.view)")
            #expect(produced.first.map { _ in true } ?? false)
            for chart in report.charts {
                for column in chart.columns { #expect(report.column(column) != nil, "\(report.view)'s chart '\(chart.title)' draws undeclared \(column)") }
            }
        }
    }

    @Test("every built-in report is valid and has a view of its own")
    func declarationsValid() {
        #expect(BuiltInScenarios.reports.allSatisfy { $0.problem == nil })
        #expect(Set(BuiltInScenarios.reports.map(\.view)).count == BuiltInScenarios.reports.count)
        #expect(Set(BuiltInScenarios.reports.map(\.name)).count == BuiltInScenarios.reports.count)
    }

    /// A user's own scenario with a report of its own, declared here as a user would.
    struct TwoPlaces: Scenario {
        enum Strategy: String, ScenarioStrategy { case one, two }
        let name = "two-places"
        let summary = "a test's own scenario with a report of its own"
        let baselineStrategy = Strategy.one.rawValue
        let strategies = Strategy.names
        let countParameter = "count"
        let parameters = [ParameterSpec("count", "items", .integer(1...100), default: .int(3))]
        let steps = ["build"]
        let metrics = ["placed"]
        var report: ReportDeclaration {
            ReportDeclaration(
                name: "two-places", view: "two_places_report", summary: "bytes built and items placed",
                query: """
                    SELECT run_id, strategy, SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) / MAX(repeats) AS built_bytes,
                           CAST((SELECT value FROM metric_summary m WHERE m.run_key = s.run_key AND m.strategy = s.strategy AND m.name = 'placed') AS INTEGER) AS placed
                    FROM step_summary s WHERE report = 'two-places' GROUP BY run_key, strategy ORDER BY run_key, MIN(first_seq)
                    """,
                columns: [.label("strategy", "how"), .measured("built_bytes", .bytes, "bytes built"),
                          .measured("placed", .count, "items placed", polarity: .largerIsBetter)],
                charts: [.perStrategy("Bytes built", unit: "bytes", ["built_bytes"])])
        }

        func run(_ context: ScenarioContext) throws {
            for strategy in try context.strategies(Strategy.self) {
                let probe = context.probe(component: "item", strategy: strategy.rawValue)
                var kept: [[Int]] = []
                try context.step("build", strategy: strategy.rawValue) {
                    for i in 0..<context.options.int("count") {
                        kept.append(try probe.instance(i).measure(.create) {
                            switch strategy {
                            case .one: [i]
                            case .two: [i, i]
                            }
                        })
                    }
                    try context.metric("placed", Double(kept.count), strategy: strategy.rawValue)
                }
                for i in kept.indices.reversed() { try probe.instance(i).measure(.release) { _ = kept.removeLast() } }
            }
        }
    }

    @Test("a user's own report is stored with its view, and read, gated and charted from the database alone")
    func usersReportFromTheDatabase() throws {
        let temp = try TemporaryDatabase()
        try ScenarioRunner.record(TwoPlaces(), database: temp.path, options: RecordOptions(instances: 4))
        let db = try ProfileStore.openForReading(path: temp.path)
        // Nothing compiled in: the database says everything.
        let catalog = try ReportCatalog.load(from: db, declared: [])
        let run = try RunQueries.resolve("latest", in: db)
        let report = try RunReport.load(run, measure: .requested, catalog: catalog, from: db)
        #expect(report.declaration == TwoPlaces().report)
        #expect(report.table.columns == ["strategy", "built_bytes", "placed"])
        #expect(report.table.rows.map { $0[2] } == [.integer(4), .integer(4)])
        let metrics = try MetricCatalog.metrics(of: run, in: db)
        let placed = try #require(metrics.first { $0.key.name == "placed" && $0.key.strategy == "one" })
        #expect(placed.polarity == .largerIsBetter && placed.value == 4)
        #expect(HTMLReport.charts(report).count == 1)
        let names = try ScenarioNames.load("two-places", in: db)
        #expect(names.primaryMetrics.isSuperset(of: ["built_bytes", "placed"]))
    }

    @Test("a view is recreated when its declaration changes, and left alone (no write) when it does not")
    func repeatable() throws {
        let temp = try TemporaryDatabase()
        let view = try TwoPlaces().report.repeatableView()
        let db = try ProfileStore.openForWriting(path: temp.path, views: [view])
        let stamp = try db.scalar("SELECT updated_at || checksum FROM report_views WHERE view = 'two_places_report'")
        usleep(2_000)
        try ReportViews.install([view], in: db)
        #expect(try db.scalar("SELECT updated_at || checksum FROM report_views WHERE view = 'two_places_report'") == stamp)
        let changed = RepeatableView(view: view.view, report: view.report, query: "SELECT 'x' AS run_id, 'y' AS strategy",
                                     checksum: "changed", declaration: view.declaration)
        try ReportViews.install([changed], in: db)
        #expect(try db.table("SELECT * FROM two_places_report", []).columns == ["run_id", "strategy"])
        #expect(try db.scalar("SELECT checksum FROM report_views WHERE view = 'two_places_report'") == .text("changed"))
    }

    @Test("a strategy name that is not one of the enum's cases throws instead of running another's code")
    func typedStrategies() throws {
        let options = ResolvedOptions(repeats: 1, strategies: ["one", "three"], parameters: [:], runName: "two-places")
        let context = ScenarioContext(sink: DiscardingSink(), repeatIndex: 0, options: options)
        #expect(throws: ScenarioError.self) { try context.strategies(TwoPlaces.Strategy.self) }
        #expect(throws: ScenarioError.self) { try TwoPlaces().resolve(RecordOptions(strategies: ["three"])) }
    }

    @Test("recording a step or metric the scenario does not declare throws and aborts the run")
    func undeclaredStepThrows() throws {
        let options = try TwoPlaces().resolve(RecordOptions())
        let context = ScenarioContext(sink: DiscardingSink(), repeatIndex: 0, options: options)
        #expect(throws: ScenarioError.self) { try context.step("biuld", strategy: "one") {} }
        #expect(throws: ScenarioError.self) { try context.metric("plcaed", 1, strategy: "one") }
        try context.step("build", strategy: "one") {}
        try context.metric("placed", 1, strategy: "one")
    }

    @Test("merge copies a user's report view and declaration into an output that lacks them")
    func mergeCopiesUsersReport() throws {
        let input = try TemporaryDatabase(), output = try TemporaryDatabase()
        try ScenarioRunner.record(TwoPlaces(), database: input.path, options: RecordOptions(instances: 2))
        _ = try Merger.merge(into: output.path, from: [input.path])
        let db = try ProfileStore.openForReading(path: output.path)
        let run = try RunQueries.resolve("latest", in: db)
        let report = try RunReport.load(run, measure: .requested, catalog: try ReportCatalog.load(from: db, declared: []), from: db)
        #expect(report.declaration.view == "two_places_report")
        #expect(report.table.rows.count == 2)
    }
}
