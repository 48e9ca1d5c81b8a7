import Foundation
import Profiler
import ProfilerPostgres
import Testing

/// `profctl types` on stores from before types, or before what later events gave back was
/// counted (issue 24, "Done means"): a clear message and no table, never an empty table
/// that reads like a pass.
@Suite("types on older stores")
struct OlderTypesStoresTests {
    @Test("a database of schema version 4 (before types): readers say to migrate; migrated, types says no run has them")
    func olderDatabase() throws {
        let folder = try TemporaryFolder()
        let fixture = DocumentedExamplesTests.root.appendingPathComponent("Tests/Fixtures/schema-v4.sqlite")
        try FileManager.default.copyItem(at: fixture, to: folder.url.appendingPathComponent("old.sqlite"))
        let behind = try ProfctlProcess.run(["types", "--db", "old.sqlite"], in: folder.url)
        #expect(behind.status == 9 && behind.stdout.isEmpty && behind.stderr.contains("profctl migrate"), "\(behind.stderr)")
        let migrate = try ProfctlProcess.run(["migrate", "--db", "old.sqlite"], in: folder.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let none = try ProfctlProcess.run(["types", "--db", "old.sqlite"], in: folder.url)
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderr.contains("no run recorded with types")
                && none.stderr.contains("profctl record --types"), "\(none.stderr)")
        // One of its runs, named: recorded without types, and how to record them.
        let run = try #require(try ProfileStore.openForReading(path: folder.url.appendingPathComponent("old.sqlite").path)
            .scalar("SELECT run_id FROM runs ORDER BY started_at LIMIT 1")?.string)
        let named = try ProfctlProcess.run(["types", "--db", "old.sqlite", "--run", String(run.prefix(8))], in: folder.url)
        #expect(named.status == 1 && named.stdout.isEmpty && named.stderr.contains("recorded without types"), "\(named.stderr)")
    }

    @Test("a PostgreSQL store without the types tables (version 7), or without what later events gave back (version 12): exit 9, how to migrate, no table",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func olderStore() throws {
        let folder = try TemporaryFolder()
        for version in [7, 12] {
            guard let server = try PostgresTestDatabase.make("olderStore\(version)") else { return }
            let old = PostgresMigrator(migrations: PostgresMigrator().migrations.filter { $0.version <= version })
            _ = try old.migrate(try server.connect())
            #expect(try server.connect().scalar("SELECT to_regclass('object_types')") == (version < 8 ? .null : .text("object_types")))
            for arguments in [["types"], ["types", "--type", "ProfilerCatalog.Label"], ["types", "--diff", "latest", "latest"]] {
                let refused = try ProfctlProcess.run(arguments + ["--store", server.url], in: folder.url)
                #expect(refused.status == 9 && refused.stdout.isEmpty, "\(version) \(arguments): \(refused.stdout)\(refused.stderr)")
                #expect(refused.stderr.contains("schema version \(version); this profctl reads version \(PostgresMigrator().latestVersion)")
                        && refused.stderr.contains("profctl push --to"), "\(version) \(arguments): \(refused.stderr)")
            }
        }
    }
}
