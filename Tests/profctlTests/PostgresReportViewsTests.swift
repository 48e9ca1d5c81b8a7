import Foundation
import Profiler
import ProfilerPostgres
import Testing

/// The PostgreSQL store's report views come from the same declarations, and the same query
/// text, as the SQLite file's: push installs them, a user's own report included.
@Suite("report views on the PostgreSQL store, from the declarations", .serialized)
struct PostgresReportViewsTests {
    /// A user's own scenario whose report is given as `query`.
    struct OwnReport: Scenario {
        enum Strategy: String, ScenarioStrategy { case one, two }
        let name: String
        let query: String
        var summary: String { "a test's own scenario with the report \(name)" }
        let baselineStrategy = Strategy.one.rawValue
        let strategies = Strategy.names
        let countParameter = "count"
        let parameters = [ParameterSpec("count", "items", .integer(1...100), default: .int(3))]
        var report: ReportDeclaration {
            ReportDeclaration(name: name, view: name.replacingOccurrences(of: "-", with: "_") + "_report", summary: "bytes built",
                              query: query, columns: [.label("strategy", "how"), .measured("built_bytes", .bytes, "bytes built")])
        }

        func run(_ context: ScenarioContext) throws {
            for strategy in try context.strategies(Strategy.self) {
                let probe = context.probe(component: "item", strategy: strategy.rawValue)
                var kept: [[Int]] = []
                for i in 0..<context.options.int("count") {
                    kept.append(try probe.instance(i).measure(.create) { strategy == .one ? [i] : [i, i] })
                }
                for i in kept.indices.reversed() { try probe.instance(i).measure(.release) { _ = kept.removeLast() } }
            }
        }
    }

    /// Written once for both stores: sums cast to BIGINT, every selected column grouped.
    static let portable = OwnReport(name: "two-stores", query: """
        SELECT run_id, strategy, CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS built_bytes
        FROM step_summary WHERE report = 'two-stores' GROUP BY run_key, run_id, strategy ORDER BY run_key, MIN(first_seq)
        """)
    /// SQLite takes it (run_id is not grouped); PostgreSQL does not.
    static let fileOnly = OwnReport(name: "file-only", query: """
        SELECT run_id, strategy, SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) / MAX(repeats) AS built_bytes
        FROM step_summary WHERE report = 'file-only' GROUP BY run_key, strategy ORDER BY run_key, MIN(first_seq)
        """)

    @Test("push creates every report view from its declaration, a user's own too; one the store refuses is named, its runs pushed", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func viewsFromDeclarations() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        let local = folder.url.appendingPathComponent("local.sqlite").path
        try ProfctlProcess.record(["image-cache", "identity", "--instances", "5"], db: "local.sqlite", in: folder)
        _ = try ScenarioRunner.record(Self.portable, database: local, options: RecordOptions())
        _ = try ScenarioRunner.record(Self.fileOnly, database: local, options: RecordOptions())
        let push = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stderr.contains("cannot create report file-only's view file_only_report"), "\(push.stderr)")
        let store = try server.connect()
        let views = try store.query("SELECT view, query FROM report_views ORDER BY view").rows
        let stored = Dictionary(uniqueKeysWithValues: views.map { ($0[0].string ?? "", $0[1].string ?? "") })
        for report in BuiltInScenarios.reports {
            // The very text the SQLite file's view is created from: nothing mirrored by hand.
            #expect(stored[report.view] == report.query, "\(report.view)")
        }
        #expect(stored["two_stores_report"] == Self.portable.query)
        #expect(stored["file_only_report"] == nil)
        #expect(try store.scalar("SELECT count(*) FROM runs WHERE scenario = 'file-only'")?.int64 == 1)
        for scenario in ["two-stores", "image-cache", "identity"] {
            let fromFile = try ProfctlProcess.run(["report", "--db", "local.sqlite", "--scenario", scenario, "--format", "csv"], in: folder.url)
            let fromStore = try ProfctlProcess.run(["report", "--store", server.url, "--scenario", scenario, "--format", "csv"], in: folder.url)
            #expect(fromFile.status == 0 && fromStore.status == 0, "\(fromFile.stderr)\(fromStore.stderr)")
            #expect(!fromFile.stdout.isEmpty && fromFile.stdout == fromStore.stdout, "\(scenario)")
        }
        // In step: a second push installs nothing and warns again only about the refused one.
        let again = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(again.status == 0 && again.stderr.contains("0 runs pushed"), "\(again.stderr)")
    }
}
