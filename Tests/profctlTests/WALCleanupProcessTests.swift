import Foundation
import Profiler
import Testing

/// After a command that writes exits 0, its database is one self-contained file: no
/// `-wal` or `-shm` beside it, and the main file alone holds what was written (a copy of
/// it without its neighbours reads the same). Reading commands already guarantee this;
/// `record` once left its run in `-wal` when it exited before its writer thread let go
/// of the recorder's connection.
@Suite("writers leave one self-contained file")
struct WALCleanupProcessTests {
    /// Expects no `-wal`/`-shm` beside `name`, then reads `sql`'s count from a copy of the
    /// main file alone (so nothing a leftover WAL held can be counted).
    func selfContainedCount(_ name: String, in folder: TemporaryFolder, _ sql: String) throws -> Int64? {
        let path = folder.url.appendingPathComponent(name).path
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(name)\(suffix) was left behind")
        }
        let alone = try TemporaryFolder()
        let copy = alone.url.appendingPathComponent(name)
        try FileManager.default.copyItem(atPath: path, toPath: copy.path)
        return try ProfileStore.openForReading(path: copy.path).scalar(sql)?.int64
    }

    static let completeRuns = "SELECT count(*) FROM runs WHERE status = 'complete'"

    @Test("record: the run is complete in the main file, no -wal or -shm", arguments: 1...3)
    func record(attempt: Int) throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "one.sqlite", in: folder)
        #expect(try selfContainedCount("one.sqlite", in: folder, Self.completeRuns) == 1)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "one.sqlite", in: folder)
        #expect(try selfContainedCount("one.sqlite", in: folder, Self.completeRuns) == 2)
    }

    @Test("record --sites: the run and its sites are in the main file, no -wal or -shm")
    func recordWithSites() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5", "--sites"], db: "sites.sqlite", in: folder)
        #expect(try selfContainedCount("sites.sqlite", in: folder, Self.completeRuns) == 1)
        #expect(try selfContainedCount("sites.sqlite", in: folder, "SELECT count(*) FROM sites") ?? 0 > 0)
    }

    @Test("merge: the output holds both runs in its main file; no input or output keeps a -wal or -shm")
    func merge() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "a.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "b.sqlite", in: folder)
        let merged = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try selfContainedCount("all.sqlite", in: folder, Self.completeRuns) == 2)
        #expect(try selfContainedCount("a.sqlite", in: folder, Self.completeRuns) == 1)
        #expect(try selfContainedCount("b.sqlite", in: folder, Self.completeRuns) == 1)
    }
}
