import Foundation
import Testing
import Profiler

/// `record --types` and `profctl types` in a real profctl process: types add up to every
/// event's allocations exactly, lazy-container names what a Label allocates, and every
/// wrong input gets a message and an exit code, never an empty table.
@Suite("Swift object types, recorded by profctl")
struct TypesProcessTests {
    static let scenarios = ["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "live-room"]

    @Test("types add up to the events' allocations, for every (component, strategy, kind) of every built-in scenario")
    func typesAddUp() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(Self.scenarios + ["--types", "--instances", "30"], in: folder)
        let db = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("profile.sqlite").path)
        #expect(try db.scalar("SELECT count(*) FROM object_type_runs")?.int64 == Int64(Self.scenarios.count))
        #expect(try db.scalar("SELECT SUM(dropped) FROM object_type_runs")?.int64 == 0)
        let mismatches = try db.rows("""
            WITH t AS (SELECT run_id, component, strategy, kind, sum(objects) AS objects FROM types GROUP BY 1, 2, 3, 4),
                 e AS (SELECT r.run_id, s.component, s.strategy, k.name AS kind, sum(e.allocations) AS allocations
                       FROM events e JOIN event_series x ON x.series_id = e.series_id JOIN runs r ON r.run_key = x.run_key
                       JOIN subjects s ON s.subject_id = x.subject_id JOIN event_kinds k ON k.kind_id = x.kind_id
                       GROUP BY 1, 2, 3, 4)
            SELECT e.run_id, e.component, e.strategy, e.kind, e.allocations, t.objects
            FROM e LEFT JOIN t USING (run_id, component, strategy, kind)
            WHERE coalesce(t.objects, 0) != e.allocations
            """)
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(try db.scalar("SELECT count(*) FROM types WHERE objects < 0 OR live_objects < 0 OR live_requested_bytes < 0")?.int64 == 0)
    }

    @Test("lazy-container: a lazy Label is exactly one LazyContainer per instance; an eager one names the objects a Label allocates")
    func lazyContainerNames() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "25"], in: folder)
        let lazy = try ProfctlProcess.run(["types", "--component", "Label", "--strategy", "lazy", "--format", "csv"], in: folder.url)
        #expect(lazy.status == 0, "\(lazy.stderr)")
        let lines = lazy.stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(lines.count == 1, "\(lazy.stdout)")
        #expect(lines.first?.contains("ProfilerPrimitives.LazyContainer<ProfilerCatalog.Label,") == true, "\(lazy.stdout)")
        #expect(lines.first?.contains(",25,25,1,") == true, "\(lazy.stdout)")
        let eager = try ProfctlProcess.run(["types", "--component", "Label", "--strategy", "eager", "--kind", "create"], in: folder.url)
        #expect(eager.status == 0, "\(eager.stderr)")
        for type in ["ProfilerCatalog.Label", "ProfilerCatalog.Layer", "ProfilerCatalog.TextStorage"] {
            #expect(eager.stdout.contains(type), "\(eager.stdout)")
        }
        let one = try ProfctlProcess.run(["types", "--type", "ProfilerCatalog.TextStorage", "--format", "json"], in: folder.url)
        #expect(one.status == 0 && one.stdout.contains("ProfilerCatalog.TextStorage") && !one.stdout.contains("ProfilerCatalog.Layer"),
                "\(one.stdout)\(one.stderr)")
    }

    @Test("a typo'd --type or --component exits 64 with the choices; a run without types says so, and so does --diff with one")
    func badInput() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let none = try ProfctlProcess.run(["types"], in: folder.url)
        #expect(none.status == 1 && none.stdout.isEmpty, "\(none.stdout)")
        #expect(none.stderr.contains("no run recorded with types") && none.stderr.contains("profctl record --types"), "\(none.stderr)")
        let plain = try ProfctlProcess.run(["types", "--run", "latest"], in: folder.url)
        #expect(plain.status == 1 && plain.stderr.contains("recorded without types"), "\(plain.stderr)")
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "5"], in: folder)
        let typo = try ProfctlProcess.run(["types", "--type", "ProfilerCatalog.Lable"], in: folder.url)
        #expect(typo.status == 64 && typo.stdout.isEmpty, "\(typo.stdout)")
        #expect(typo.stderr.contains("ProfilerCatalog.Label"), "\(typo.stderr)")
        let component = try ProfctlProcess.run(["types", "--component", "Lable"], in: folder.url)
        #expect(component.status == 64 && component.stderr.contains("Label"), "\(component.stderr)")
        let diff = try ProfctlProcess.run(["types", "--diff", "latest", "latest"], in: folder.url)
        #expect(diff.status == 0 && diff.stderr.hasPrefix("types from run ") && diff.stderr.contains(" (B): 0 changed"), "\(diff.stderr)")
    }

    @Test("merge carries types: profctl types on the merged file prints what it prints on each source; a run without types stays without")
    func mergeCarriesTypes() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--types", "--instances", "10"], db: "a.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "image-cache", "--types", "--instances", "10"], db: "b.sqlite", in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], db: "b.sqlite", in: folder)
        let merge = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(merge.status == 0, "\(merge.stderr)")
        var compared = 0
        for file in ["a.sqlite", "b.sqlite"] {
            let runs = try ProfctlProcess.run(["query", "--db", file, "--format", "csv",
                                               "SELECT r.run_id FROM runs r JOIN object_type_runs t ON t.run_key = r.run_key"], in: folder.url)
                .stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init)
            for run in runs {
                for format in [["--format", "csv"], ["--format", "json"]] {
                    let source = try ProfctlProcess.run(["types", "--db", file, "--run", run] + format, in: folder.url)
                    let merged = try ProfctlProcess.run(["types", "--db", "all.sqlite", "--run", run] + format, in: folder.url)
                    #expect(source.status == 0 && merged.status == 0, "\(merged.stderr)")
                    #expect(source.stdout.count > 100 && merged.stdout == source.stdout, "types \(format) of run \(run) from \(file)")
                    compared += 1
                }
            }
        }
        #expect(compared == 6)
        let plain = try ProfctlProcess.run(["types", "--db", "all.sqlite", "--scenario", "identity"], in: folder.url)
        #expect(plain.status != 0 && plain.stderr.contains("--types"), "\(plain.stderr)")
    }
}
