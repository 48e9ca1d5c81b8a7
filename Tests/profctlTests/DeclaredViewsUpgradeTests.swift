import Foundation
import Profiler
import Testing

/// A database recorded by the profctl before report views came from declarations
/// (schema version 4, views from migrations 0002 and 0003) reports the same numbers once
/// migrated, with its views now created from the scenarios' declarations.
@Suite("Declared report views on an old database")
struct DeclaredViewsUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every report (run, report name, byte measure, rows) as Foundation objects, compared with isEqual.
    static func reports(_ json: String) throws -> [NSDictionary] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let reports = try #require(object?["reports"] as? [[String: Any]])
        // Schema version 14's ARC columns (NULL: runs recorded before counted none) are
        // not in reports made before it.
        let arcColumns: Set = ["retains_per_instance", "releases_per_instance", "retains_per_hit", "releases_per_hit"]
        return reports.map { report in
            var report = report
            if let rows = report["rows"] as? [[String: Any]] {
                report["rows"] = rows.map { $0.filter { !arcColumns.contains($0.key) || !($0.value is NSNull) } }
            }
            return NSDictionary(dictionary: report)
        }
    }

    /// A report with only the row fields `model`'s rows have (rows in the same order).
    static func restricted(_ report: NSDictionary, to model: NSDictionary) -> NSDictionary {
        guard let copy = report.mutableCopy() as? NSMutableDictionary,
              let rows = report["rows"] as? [[String: Any]], let modelRows = model["rows"] as? [[String: Any]] else { return report }
        copy["rows"] = zip(rows, modelRows).map { row, modelRow in row.filter { modelRow[$0.key] != nil } }
            + rows.dropFirst(modelRows.count)
        return copy
    }

    @Test("migrated to version 5, a version-4 database reports every number as main's profctl did, in both byte measures")
    func sameNumbers() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("v4.sqlite")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("schema-v4.sqlite"), to: db)

        let migrated = try ProfctlProcess.run(["migrate", "--db", db.path], in: folder.url)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let connection = try SQLiteConnection(path: db.path, mode: .readOnly)
        let installed = try connection.rows("SELECT view FROM report_views ORDER BY view").compactMap { $0.first?.string }
        #expect(installed == BuiltInScenarios.reports.map(\.view).sorted())

        for (file, extra) in [("schema-v4-report.json", [String]()), ("schema-v4-report-usable.json", ["--bytes", "usable"])] {
            let expected = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
            let now = try ProfctlProcess.run(["report", "--db", db.path, "--format", "json"] + extra, in: folder.url)
            #expect(now.status == 0, "\(now.stderr)")
            let before = try Self.reports(expected), after = try Self.reports(now.stdout)
            #expect(before.count == 6)
            // Columns added since (the savings reports' allocations and temporaries per
            // instance, version 17) come on top: every figure main's profctl printed stays.
            #expect(after.count == before.count)
            #expect(zip(after, before).map { Self.restricted($0, to: $1) } == before, "\(file)")
        }
    }

    @Test("reading commands never install views: report on a migrated database leaves the file as it was")
    func readersDoNotWrite() throws {
        let folder = try TemporaryFolder()
        let db = folder.url.appendingPathComponent("v4.sqlite")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("schema-v4.sqlite"), to: db)
        #expect(try ProfctlProcess.run(["migrate", "--db", db.path], in: folder.url).status == 0)
        let before = try Data(contentsOf: db)
        for arguments in [["report"], ["check", "--baseline", "previous"], ["trend", "--scenario", "image-cache", "--metric", "hits"], ["runs"]] {
            _ = try ProfctlProcess.run(arguments + ["--db", db.path], in: folder.url)
        }
        #expect(try Data(contentsOf: db) == before)
    }
}
