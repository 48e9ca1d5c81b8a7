import Foundation
import ProfilerPostgres
import Testing

/// A server that accepts only TLS: a cluster of its own (scripts/pg-test-cluster start
/// --tls: ssl=on, a self-signed certificate from openssl, pg_hba.conf `hostssl` only).
@Suite("a TLS-only PostgreSQL server", .serialized)
struct PostgresTLSTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-test-cluster")

    /// Runs scripts/pg-test-cluster with its state in `folder`; its stdout. Spawned and
    /// waited for directly: Foundation's Process never saw this script exit (the server it
    /// starts under runuser outlives it), and the test hung in waitUntilExit.
    static func cluster(_ arguments: [String], in folder: TemporaryFolder) throws -> (status: Int32, stdout: String) {
        let output = folder.url.appendingPathComponent("cluster.out").path
        let command = "PROFCTL_PG_STATE='\(folder.url.appendingPathComponent("tls.state").path)' "
            + "bash '\(script.path)' \(arguments.joined(separator: " ")) > '\(output)' 2>&1 < /dev/null"
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ((status >> 8) & 0xff, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    /// Starts a TLS-only cluster; nil when the tests have no PostgreSQL
    /// (PostgresTestDatabase has then warned, or failed under CI).
    static func start(in folder: TemporaryFolder) throws -> String? {
        guard try PostgresTestDatabase.make("the TLS-only server test") != nil else { return nil }
        let started = try cluster(["start", "--tls"], in: folder)
        #expect(started.status == 0, "\(started.stdout)")
        let url = started.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return url.hasPrefix("postgres://") ? url : nil
    }

    static func stop(in folder: TemporaryFolder) throws {
        _ = try cluster(["stop"], in: folder)
    }

    @Test("sslmode=disable: exit 24 saying TLS is needed, nothing written; sslmode=require: push and --store work", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func tlsOnly() throws {
        let folder = try TemporaryFolder()
        guard let url = try Self.start(in: folder) else { return }
        defer { try? Self.stop(in: folder) }
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        let local = folder.url.appendingPathComponent("local.sqlite")
        let before = try Data(contentsOf: local)

        let plain = url + "?sslmode=disable"
        let push = try PostgresPushTests.push("local.sqlite", to: plain, in: folder)
        #expect(push.status == 24, "\(push.stderr)")
        #expect(push.stderr.contains("disagree on TLS"), "\(push.stderr)")
        #expect(push.stderr.contains("sslmode=require"), "\(push.stderr)")
        #expect(push.stderr.contains("no encryption"), "\(push.stderr)")
        #expect(!push.stderr.contains(URLComponents(string: url)?.password ?? "-"), "the password stays out of messages")
        let read = try ProfctlProcess.run(["runs", "--store", plain], in: folder.url)
        #expect(read.status == 24, "\(read.stderr)")
        #expect(try Data(contentsOf: local) == before, "the local file is unchanged")

        // The refused connections wrote nothing: over TLS, the server has no schema yet.
        let secure = url + "?sslmode=require"
        let store = try PostgresConnection(secure)
        #expect(try store.scalar("SELECT count(*) FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl")?.int64 == 1)
        #expect(try store.scalar("SELECT to_regclass('runs')") == .null)

        let securePush = try PostgresPushTests.push("local.sqlite", to: secure, in: folder)
        #expect(securePush.status == 0, "\(securePush.stderr)")
        #expect(securePush.stderr.contains("1 runs pushed"), "\(securePush.stderr)")
        let fromStore = try ProfctlProcess.run(["report", "--format", "csv", "--store", secure], in: folder.url)
        let fromFile = try ProfctlProcess.run(["report", "--format", "csv", "--db", "local.sqlite"], in: folder.url)
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        #expect(!fromFile.stdout.isEmpty)
        #expect(fromStore.stdout == fromFile.stdout)
        #expect(try Data(contentsOf: local) == before)
    }
}
