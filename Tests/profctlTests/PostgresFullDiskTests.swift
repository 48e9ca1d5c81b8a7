import Foundation
import ProfilerPostgres
import Testing

/// A full disk on the server, for real: the store's events table moved to a tablespace on
/// a 1 MB tmpfs, then a push of a run larger than that.
@Suite("a full disk on the PostgreSQL server", .serialized)
struct PostgresFullDiskTests {
    static func run(_ tool: String, _ arguments: [String], in folder: URL) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(executable: URL(fileURLWithPath: tool), arguments, in: folder)
    }

    @Test("the disk fills mid-push: exit 23 saying so, the run rolled back whole, the local file unchanged; with room again it lands",
          .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing),
          .enabled(if: TestEnvironment.root, TestEnvironment.rootMissing))
    func diskFull() throws {
        // Reached without a server or root only under CI=true: then a failure, not a skip.
        let admin = try #require(ProcessInfo.processInfo.environment["PROFCTL_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 },
                                 "PROFCTL_TEST_PG is not set (CI=true runs every test)")
        try #require(getuid() == 0, "the full-disk test needs root to mount a tmpfs (CI=true runs every test)")
        let folder = try TemporaryFolder()
        let disk = folder.url.appendingPathComponent("small-disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.path], in: folder.url)
        #expect(mounted.status == 0, "\(mounted.stderr)")
        guard mounted.status == 0 else { return }
        defer { _ = try? Self.run("/bin/umount", [disk.path], in: folder.url) }
        // The server's own user must own the tablespace's folder.
        let control = try PostgresConnection(admin)
        let dataDirectory = try #require(try control.scalar("SELECT current_setting('data_directory')")?.string)
        let owner = try #require(try FileManager.default.attributesOfItem(atPath: dataDirectory)[.ownerAccountID] as? NSNumber)
        #expect(chown(disk.path, owner.uint32Value, gid_t(owner.uint32Value)) == 0 || chown(disk.path, owner.uint32Value, 0) == 0)
        let tablespace = "profctl_full_" + UUID().uuidString.prefix(8).lowercased()
        try control.execute("CREATE TABLESPACE \(tablespace) LOCATION '\(disk.path)'")
        // Runs after the test's database is dropped (at the end of pushOntoFullDisk).
        defer { try? control.execute("DROP TABLESPACE IF EXISTS \(tablespace)") }
        try Self.pushOntoFullDisk(tablespace: tablespace, folder: folder)
    }

    static func pushOntoFullDisk(tablespace: String, folder: TemporaryFolder) throws {
        guard let server = try PostgresTestDatabase.make("the full-disk test") else { return }
        let store = try server.connect()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "small.sqlite", in: folder)
        #expect(try PostgresPushTests.push("small.sqlite", to: server.url, in: folder).status == 0)
        let eventsBefore = try PostgresPushTests.count("events", in: store)
        try store.execute("ALTER TABLE events SET TABLESPACE \(tablespace); ALTER INDEX events_pkey SET TABLESPACE \(tablespace)")

        try ProfctlProcess.record(["lazy-container", "--instances", "1000"], db: "large.sqlite", in: folder)
        let local = folder.url.appendingPathComponent("large.sqlite")
        let before = try Data(contentsOf: local)
        let full = try PostgresPushTests.push("large.sqlite", to: server.url, in: folder)
        #expect(full.status == 23, "\(full.stderr)")
        #expect(full.stderr.contains("SQLSTATE 53100"), "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(full.stderr.contains("free space on the server, then push again"), "\(full.stderr)")
        #expect(try Data(contentsOf: local) == before, "the local file is unchanged")
        // Nothing of the large run: its runs row, series, rollups and events rolled back.
        #expect(try PostgresPushTests.count("runs", in: store) == 1)
        #expect(try PostgresPushTests.count("events", in: store) == eventsBefore)
        let small = folder.url.appendingPathComponent("small.sqlite")
        for table in ["event_series", "rollups", "steps", "samples"] {
            #expect(try PostgresPushTests.count(table, in: store) == PostgresPushTests.localCount("SELECT count(*) FROM \(table)", small), "\(table)")
        }

        // Room again (the table back on the server's own disk): the same push lands whole.
        try store.execute("ALTER TABLE events SET TABLESPACE pg_default; ALTER INDEX events_pkey SET TABLESPACE pg_default")
        let again = try PostgresPushTests.push("large.sqlite", to: server.url, in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try PostgresPushTests.count("runs", in: store) == 2)
        #expect(try PostgresPushTests.count("events", in: store)
                == eventsBefore + PostgresPushTests.localCount("SELECT count(*) FROM events", local))
    }
}
