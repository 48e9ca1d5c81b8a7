import Foundation
import Testing

/// Reading commands read a database wherever a user keeps it (an archived CI artifact in
/// a read-only folder, a read-only file) and leave no `-wal` or `-shm` beside it, even
/// when several read at once (docs/cli.md, docs/reliability.md; ReaderOpening).
@Suite("reading read-only and shared databases", .serialized)
struct ReadOnlyReadingProcessTests {
    /// Root ignores file permissions: the commands run as `nobody` through setpriv.
    static func runAsNobody(_ arguments: [String], in folder: URL) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                               ["--reuid", "65534", "--regid", "65534", "--clear-groups", ProfctlProcess.binary.path] + arguments,
                               in: folder)
    }

    static let readingCommands: [[String]] = [
        ["report"], ["runs"], ["query", "SELECT count(*) FROM runs"], ["check", "--leaks"], ["export", "--run", "latest"],
        ["compare", "latest", "latest"], ["baseline", "list"], ["migrate", "--status"],
    ]

    static func beside(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }
    }

    static func recorded(in folder: URL) throws -> URL {
        let result = try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return folder.appendingPathComponent("profile.sqlite")
    }

    @Test("a read-only folder: every reading command reads it (exit 0), and nothing is created beside it",
          .enabled(if: TestEnvironment.root, "setpriv to another user needs root"))
    func readOnlyFolder() throws {
        let folder = try TemporaryFolder()
        let archive = folder.url.appendingPathComponent("artifact")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        let db = try Self.recorded(in: archive)
        let before = try Data(contentsOf: db)
        chmod(folder.url.path, 0o755)
        chmod(db.path, 0o444)
        chmod(archive.path, 0o555)
        defer { chmod(archive.path, 0o755) }
        for arguments in Self.readingCommands {
            let result = try Self.runAsNobody(arguments, in: archive)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("readonly"), "\(arguments): \(result.stderr)")
        }
        #expect(try Self.beside(archive).isEmpty)
        #expect(try Data(contentsOf: db) == before)
    }

    @Test("a read-only file in a writable folder: read, no -wal or -shm left, and record works once it is writable again",
          .enabled(if: TestEnvironment.root, "setpriv to another user needs root"))
    func readOnlyFile() throws {
        let folder = try TemporaryFolder()
        let db = try Self.recorded(in: folder.url)
        chmod(folder.url.path, 0o777)
        chmod(db.path, 0o444)
        for arguments in Self.readingCommands {
            let result = try Self.runAsNobody(arguments, in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try Self.beside(folder.url).isEmpty)
        chmod(db.path, 0o666)
        let again = try Self.runAsNobody(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test("a read-only file while a writer holds its -wal: read through it, the writer's files left to the writer",
          .enabled(if: TestEnvironment.root, "setpriv to another user needs root"))
    func readOnlyBesideWriter() throws {
        let folder = try TemporaryFolder()
        let db = try Self.recorded(in: folder.url)
        chmod(folder.url.path, 0o755)
        chmod(db.path, 0o644)
        let writer = try ReliabilityTests().start(["record", "lazy-container", "--instances", "3000", "--quiet"], in: folder.url)
        defer { writer.waitUntilExit() }
        _ = ReliabilityTests().waitUntil { FileManager.default.fileExists(atPath: db.path + "-wal") }
        let result = try Self.runAsNobody(["query", "SELECT count(*) FROM runs WHERE status = 'complete'", "--format", "csv"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1"), "\(result.stdout)")
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(try Self.beside(folder.url).isEmpty)
    }

    @Test("ten rounds of six readers at once leave no -wal or -shm behind")
    func concurrentReaders() throws {
        let folder = try TemporaryFolder()
        _ = try Self.recorded(in: folder.url)
        for round in 0..<10 {
            let readers = try (0..<6).map { index in
                try ReliabilityTests().start(index.isMultiple(of: 2) ? ["report"] : ["query", "SELECT count(*) FROM events"], in: folder.url)
            }
            for reader in readers {
                reader.waitUntilExit()
                #expect(reader.terminationStatus == 0, "round \(round)")
            }
            #expect(try Self.beside(folder.url).isEmpty, "round \(round)")
        }
    }
}
