import Foundation
import Testing

/// profctl is built without the PostgreSQL client; profctl-pg, beside it, has it, and
/// profctl hands it the command lines that need the store.
@Suite("profctl without libpq, profctl-pg beside it")
struct PostgresClientSplitTests {
    static var pgBinary: URL { ProfctlProcess.binary.deletingLastPathComponent().appendingPathComponent("profctl-pg") }

    static func linkedLibraries(_ binary: URL) throws -> String {
        try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path], in: binary.deletingLastPathComponent()).stdout
    }

    @Test("profctl does not link libpq; profctl-pg does")
    func onlyProfctlPGLinksLibPQ() throws {
        #expect(try !Self.linkedLibraries(ProfctlProcess.binary).contains("libpq"))
        #expect(try Self.linkedLibraries(Self.pgBinary).contains("libpq"))
    }

    @Test("a profctl copied without profctl-pg: --store and push exit 25 saying how to build it; files still work")
    func missingClient() throws {
        let folder = try TemporaryFolder()
        let copy = folder.url.appendingPathComponent("profctl")
        try FileManager.default.copyItem(at: ProfctlProcess.binary, to: copy)
        let record = try ProfctlProcess.run(executable: copy, ["record", "lazy-container", "--instances", "5", "--quiet", "--db", "local.sqlite"],
                                            in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let before = try Data(contentsOf: folder.url.appendingPathComponent("local.sqlite"))
        for arguments in [["runs", "--store", "postgres://ci@127.0.0.1:1/profctl"],
                          ["push", "--db", "local.sqlite", "--to", "postgres://ci@127.0.0.1:1/profctl"],
                          ["query", "--store", "postgres://ci@127.0.0.1:1/profctl", "SELECT 1"]] {
            let result = try ProfctlProcess.run(executable: copy, arguments, in: folder.url)
            #expect(result.status == 25, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("built without the PostgreSQL client"), "\(result.stderr)")
            #expect(result.stderr.contains(folder.url.appendingPathComponent("profctl-pg").path), "\(result.stderr)")
            #expect(result.stderr.contains("swift build -c release --product profctl-pg"), "\(result.stderr)")
        }
        // A store that is no connection string is a usage error before profctl-pg is looked for.
        let malformed = try ProfctlProcess.run(executable: copy, ["runs", "--store", "notaurl"], in: folder.url)
        #expect(malformed.status == 64, "\(malformed.stderr)")
        #expect(malformed.stderr.contains("--store 'notaurl' is not a PostgreSQL connection string"), "\(malformed.stderr)")
        let report = try ProfctlProcess.run(executable: copy, ["report", "--db", "local.sqlite", "--format", "csv"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("local.sqlite")) == before)

        // With profctl-pg beside it (a symbolic link to the built one), the same copy hands
        // --store over: an unreachable server is now the store's own exit 20.
        try FileManager.default.createSymbolicLink(at: folder.url.appendingPathComponent("profctl-pg"), withDestinationURL: Self.pgBinary)
        let handed = try ProfctlProcess.run(executable: copy, ["runs", "--store", "postgres://ci@127.0.0.1:1/profctl"], in: folder.url)
        #expect(handed.status == 20, "\(handed.stderr)")
        #expect(handed.stderr.contains("cannot reach the PostgreSQL store"), "\(handed.stderr)")
    }
}
