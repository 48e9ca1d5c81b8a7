import Foundation
import Testing
import Profiler

// docs/api.md's scenario of one's own, verbatim (a test checks it is), and the row it builds.
final class Row {
    var subject = "Quarterly figures"
    var flags = [false, true, false]
}

struct InboxScenario: Scenario {
    let name = "inbox"                                  // what the run is stored under
    let summary = "inbox rows, eager vs lazy"           // one line for --help
    let baselineStrategy = "eager"                      // savings are measured against it
    let strategies = ["eager", "lazy"]                  // --strategies picks among them
    let countParameter = "rows"                         // what --instances sets
    let parameters = [ParameterSpec("rows", "inbox rows", .integer(1...100_000), default: .int(200))]

    func run(_ context: ScenarioContext) throws {       // once per --repeat
        for strategy in context.strategies {
            // Warm-up: the first use of a type allocates once per process; not recorded.
            try record(strategy, rows: 1, context.discarding)
            try record(strategy, rows: context.options.int("rows"), context)
            context.progress("inbox: \(strategy)")
        }
    }

    private func record(_ strategy: String, rows count: Int, _ context: ScenarioContext) throws {
        let probe = context.probe(component: "Row", strategy: strategy)
        var rows: [AnyObject] = []
        rows.reserveCapacity(count)
        try context.step("build", strategy: strategy) {
            for i in 0..<count {
                if strategy == "lazy" {
                    rows.append(try LazyContainer<Row, NoParent>.make(probe: probe.instance(i)) { Row() })
                } else {
                    rows.append(try probe.instance(i).measure(.create) { Row() })
                }
            }
        }
        try context.step("release", strategy: strategy) {
            for i in rows.indices.reversed() {
                try probe.instance(i).measure(.release) { _ = rows.removeLast() }
            }
        }
    }
}

@Suite("docs/api.md's hand-written scenario")
struct DocumentedScenarioTests {
    @Test("docs/api.md shows this scenario verbatim, and it records: a lazy row is its 48-byte container")
    func documentedScenario() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(source.range(of: "struct InboxScenario: Scenario {"))
        let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
        let doc = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/api.md"), encoding: .utf8)
        #expect(doc.contains("```swift\n" + source[start.lowerBound..<end.upperBound] + "```"))

        let temp = try TemporaryDatabase()
        try recordOnOwnThread(InboxScenario(), database: temp.path, options: RecordOptions(instances: 20))
        let db = try ProfileStore.openForReading(path: temp.path)
        let report = try SavingsReport.load(run: "latest", measure: .requested, from: db)
        let bytes = Dictionary(uniqueKeysWithValues: report.rows.map { ($0.strategy, $0.bytesPerInstance) })
        #expect(bytes["lazy"] == 48)
        #expect((bytes["eager"] ?? 0) > 48)
        let unreleased = try db.scalar("SELECT count(*) FROM rollups WHERE requested_bytes != released_requested_bytes")?.int64
        let rollups = try db.rows("SELECT strategy, requested_bytes, released_requested_bytes, min_instance_requested, max_instance_requested FROM rollups")
        #expect(unreleased == 0, "\(rollups)")
    }
}
