import Foundation
import ProfilerPostgres
import Testing

/// What push does when the store cannot take the runs: a clear message, an exit code of
/// its own, the local file unchanged and nothing half-written on the server.
@Suite("push faults", .serialized)
struct PostgresFaultTests {
    static func recorded() throws -> (TemporaryFolder, Data) {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        return (folder, try Data(contentsOf: folder.url.appendingPathComponent("local.sqlite")))
    }

    static func localUnchanged(_ folder: TemporaryFolder, _ before: Data) throws -> Bool {
        try Data(contentsOf: folder.url.appendingPathComponent("local.sqlite")) == before
    }

    @Test("no server listening: exit 20")
    func serverDown() throws {
        let (folder, before) = try Self.recorded()
        let result = try PostgresPushTests.push("local.sqlite", to: "postgres://profctl:x@127.0.0.1:1/profctl?connect_timeout=5", in: folder)
        #expect(result.status == 20, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach the PostgreSQL store"), "\(result.stderr)")
        #expect(!result.stderr.contains(":x@"), "the password is not printed")
        #expect(try Self.localUnchanged(folder, before))
    }

    @Test("no store named: exit 64 saying how to name one")
    func noStore() throws {
        let (folder, _) = try Self.recorded()
        var environment: [String: String] = [:]
        for key in ["PROFCTL_STORE", "PGHOST", "PGDATABASE", "PGSERVICE", "PGHOSTADDR"] { environment[key] = "" }
        let result = try ProfctlProcess.run(["push", "--db", "local.sqlite"], environment: environment, in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--to postgres://"), "\(result.stderr)")
    }

    @Test("a store that is not a connection string: exit 64 naming the forms, nothing tried")
    func malformedStore() throws {
        let (folder, before) = try Self.recorded()
        for command in [["push", "--db", "local.sqlite", "--to", "notaurl"], ["runs", "--store", "notaurl"]] {
            let result = try ProfctlProcess.run(command, in: folder.url)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is not a PostgreSQL connection string") && result.stderr.contains("postgres://"),
                    "\(result.stderr)")
        }
        #expect(try Self.localUnchanged(folder, before))
    }

    @Test("wrong password: exit 21, nothing written", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func wrongPassword() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, before) = try Self.recorded()
        var parts = try #require(URLComponents(string: server.url))
        parts.password = "wrong-password"
        let result = try PostgresPushTests.push("local.sqlite", to: try #require(parts.string), in: folder)
        #expect(result.status == 21, "\(result.stderr)")
        #expect(result.stderr.contains("refused the login"), "\(result.stderr)")
        #expect(!result.stderr.contains("wrong-password"))
        #expect(try server.connect().scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")?.int64 == 0)
        #expect(try Self.localUnchanged(folder, before))
    }

    @Test("another application's database: exit 22, left untouched", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func foreignDatabase() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, before) = try Self.recorded()
        let store = try server.connect()
        try store.execute("CREATE TABLE schema_migrations (version TEXT); CREATE TABLE invoices (id INT)")
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 22, "\(result.stderr)")
        #expect(result.stderr.contains("another application"), "\(result.stderr)")
        let tables = try store.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").rows.compactMap { $0.first?.string }
        #expect(tables == ["invoices", "schema_migrations"])
        #expect(try Self.localUnchanged(folder, before))
    }

    @Test("a store with a newer schema: exit 8, no run added", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func newerSchema() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, before) = try Self.recorded()
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        _ = try store.query("INSERT INTO schema_migrations VALUES (999, 'future', 'x', 'now')")
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 8, "\(result.stderr)")
        #expect(result.stderr.contains("newer than this profctl"), "\(result.stderr)")
        #expect(try store.scalar("SELECT count(*) FROM runs")?.int64 == 0)
        #expect(try Self.localUnchanged(folder, before))
    }

    @Test("an edited migration is refused: exit 9", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func editedMigration() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, _) = try Self.recorded()
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        _ = try store.query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1")
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 9, "\(result.stderr)")
    }

    @Test("the server refuses a write mid-run (as a full disk would): exit 23, the run rolled back whole", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func refusedMidRun() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, before) = try Self.recorded()
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        // Stands in for a full disk: the events copy fails after runs, steps and rollups went in.
        try store.execute("""
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$;
            CREATE TRIGGER full_disk BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse();
            """)
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 23, "\(result.stderr)")
        #expect(result.stderr.contains("53100"), "\(result.stderr)")
        for table in PostgresPushTests.tables {
            #expect(try PostgresPushTests.count(table, in: store) == 0, "\(table) half-written")
        }
        #expect(try Self.localUnchanged(folder, before))
        // Once the disk has room again, the same push lands.
        try store.execute("DROP TRIGGER full_disk ON events")
        #expect(try PostgresPushTests.push("local.sqlite", to: server.url, in: folder).status == 0)
        #expect(try PostgresPushTests.count("runs", in: store) == 1)
    }

    @Test("the connection dies mid-run (the server goes away): exit 20, the run rolled back whole", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func connectionLostMidRun() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let (folder, before) = try Self.recorded()
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        // The pusher's own backend is terminated while it copies events, as when the
        // server is stopped or the network drops mid-push.
        try store.execute("""
            CREATE FUNCTION vanish() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
            CREATE TRIGGER vanish BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION vanish();
            """)
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 20, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach the PostgreSQL store"), "\(result.stderr)")
        for table in PostgresPushTests.tables {
            #expect(try PostgresPushTests.count(table, in: store) == 0, "\(table) half-written")
        }
        #expect(try Self.localUnchanged(folder, before))
    }
}
