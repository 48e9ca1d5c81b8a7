import Foundation
import Testing

/// `profctl query` on a table or view that does not exist: a name the user typed, so
/// exit 64 with the views and tables there are (SQLite's own error said only "no such table").
@Suite("query names the tables and views")
struct QueryNamesProcessTests {
    @Test("SELECT from a misspelt view: exit 64 listing the views first, then the tables; a correct one still runs")
    func misspeltView() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let result = try ProfctlProcess.run(["query", "SELECT * FROM savingz"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("query: no table or view named 'savingz'; known: "), "\(result.stderr)")
        let known = try #require(result.stderr.components(separatedBy: "known: ").last)
        #expect(known.contains("savings, savings_by_measure"), "\(known)")
        let views = try #require(known.range(of: "timeline")), tables = try #require(known.range(of: "event_series"))
        #expect(views.lowerBound < tables.lowerBound, "views before tables: \(known)")
        #expect(!known.contains("sqlite_"), "\(known)")
        let fine = try ProfctlProcess.run(["query", "SELECT count(*) FROM savings", "--format", "csv"], in: folder.url)
        #expect(fine.status == 0 && fine.stdout.contains("9"), "\(fine.stderr)")
    }
}
