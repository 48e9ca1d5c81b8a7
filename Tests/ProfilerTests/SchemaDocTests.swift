import Foundation
import Testing
import Profiler
import SchemaDocExamples
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("docs/schema.md")
struct SchemaDocTests {
    static let schemaDoc = SchemaDocExamples.document

    @Test("every example query runs against a recorded database and returns rows")
    func examplesRun() throws {
        let queries = try SchemaDocExamples.queries(includingFileOnly: true)
        #expect(queries.count >= 10)
        let temp = try TemporaryDatabase()
        for scenario in BuiltInScenarios.all {
            try ScenarioRunner.record(scenario, database: temp.path, options: RecordOptions(instances: scenario.name == "live-room" ? 30 : 5))
        }
        try ScenarioRunner.record(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 5))
        let db = try ProfileStore.openForReading(path: temp.path)
        for query in queries {
            #expect(throws: Never.self, "\(query)") { _ = try ReadOnlyQuery.run(query, on: db) }
        }
        // The ones about what every database has return rows.
        #expect(try ReadOnlyQuery.run(queries[0], on: db).table.rows.count > 0)
    }

    @Test("every table and view of the schema is documented")
    func everythingDocumented() throws {
        let text = try String(contentsOf: Self.schemaDoc, encoding: .utf8)
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        let names = try db.rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")
            .compactMap { $0.first?.string }
        for name in names {
            #expect(text.contains("`\(name)`"), "\(name) is not in docs/schema.md")
        }
    }

    @Test("the report views part of docs/schema.md is what the declarations generate")
    func reportViewsGenerated() throws {
        let text = try String(contentsOf: Self.schemaDoc, encoding: .utf8)
        let generated = BuiltInScenarios.reportViewsDoc
        let start = try #require(text.range(of: "<!-- BEGIN report views"), "docs/schema.md lacks the generated part's start marker")
        let end = try #require(text.range(of: ReportViewsDoc.end), "docs/schema.md lacks the generated part's end marker")
        let current = String(text[start.lowerBound..<end.upperBound])
        if ProcessInfo.processInfo.environment["PROFCTL_WRITE_SCHEMA_DOC"] == "1", current != generated {
            try text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: generated)
                .write(to: Self.schemaDoc, atomically: true, encoding: .utf8)
            return
        }
        #expect(current == generated, "docs/schema.md's report views differ from the declarations: run PROFCTL_WRITE_SCHEMA_DOC=1 swift test --disable-xctest --filter SchemaDocTests")
    }
}
