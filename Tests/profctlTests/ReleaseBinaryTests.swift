import Foundation
import ProfctlTestSupport
import Testing

/// The release profctl carries the Swift runtime inside (-static-stdlib, Package.swift), where
/// the hooks cannot look the runtime's ARC and allocation pointers up with dlsym: they are
/// referenced at link time instead. The process tests run the debug binary, linked against
/// libswiftCore.so; these run the release one beside it (CI builds it before the tests) and
/// check it is static and still counts retains, releases and types.
@Suite("The release profctl, linked with the Swift runtime inside", .serialized)
struct ReleaseBinaryTests {
    /// .build/<triple>/release/profctl, beside the debug folder the tests run from.
    static let binary = ProfctlProcess.binary.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("release").appendingPathComponent("profctl")
    static let built = FileManager.default.isExecutableFile(atPath: binary.path)
    static let missing: Comment = "no release profctl beside the debug build (swift build -c release --product profctl): NOT checked"

    @Test("it needs no Swift runtime or Foundation library", .enabled(if: built, missing))
    func linksTheRuntimeInside() throws {
        let folder = try TemporaryFolder()
        let elf = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", Self.binary.path], in: folder.url)
        try #require(elf.status == 0, "readelf -d failed: \(elf.stderr)")
        let needed = elf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty)
        #expect(!needed.contains { $0.contains("swift") || $0.contains("Foundation") || $0.contains("dispatch") }, "\(needed)")
    }

    @Test("it counts retains, releases and types", .enabled(if: built, missing))
    func countsARCAndTypes() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(executable: Self.binary,
                                            ["record", "lazy-container", "--instances", "2", "--types", "--db", "p.sqlite", "--quiet"],
                                            in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(!record.stderr.contains("off"), "a hook refused: \(record.stderr)")
        let report = try ProfctlProcess.run(executable: Self.binary, ["report", "--db", "p.sqlite", "--format", "json"], in: folder.url)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        #expect(run["arc_counting"] as? String == "runtime-hooks", "\(run)")
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.count == 9)
        for row in rows {
            let retains = row["retains_per_instance"] as? Double ?? -1
            #expect(retains >= 0, "no retains counted: \(row)")
        }
        // Eager Labels build objects of the catalog's types, which the allocation pointer names.
        let types = try ProfctlProcess.run(executable: Self.binary, ["types", "--db", "p.sqlite", "--format", "csv"], in: folder.url)
        #expect(types.status == 0 && types.stdout.contains("ProfilerCatalog.Label"), "\(types.stdout)\(types.stderr)")
    }
}
