import Foundation
import Testing
import Profiler

/// `record --sites` in a real profctl process: sites add up to the report exactly, and
/// capturing them changes no measured byte.
@Suite("Allocation sites, recorded by profctl")
struct SitesProcessTests {
    static let scenarios = ["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "live-room"]

    /// Per run, component and strategy: the report's bytes (rollups: bytes per instance x
    /// instances x repeats) and the sum over its sites of create and realize events.
    func reportAndSites(_ path: String) throws -> [[SQLValue]] {
        let db = try ProfileStore.openForReading(path: path)
        return try db.rows("""
            SELECT r.run_key, r.component, r.strategy, r.requested_bytes, r.usable_bytes,
                   (SELECT COALESCE(SUM(x.live_requested_bytes), 0) FROM sites x JOIN subjects s ON s.subject_id = x.subject_id
                    WHERE x.run_key = r.run_key AND s.component = r.component AND s.strategy = r.strategy AND x.kind_id IN (0, 1)),
                   (SELECT COALESCE(SUM(x.live_usable_bytes), 0) FROM sites x JOIN subjects s ON s.subject_id = x.subject_id
                    WHERE x.run_key = r.run_key AND s.component = r.component AND s.strategy = r.strategy AND x.kind_id IN (0, 1))
            FROM rollups r ORDER BY r.run_key, r.component, r.strategy
            """)
    }

    @Test("sum over sites = bytes per instance x instances, for every component of every built-in scenario")
    func sitesSumToTheReport() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(Self.scenarios + ["--sites", "--instances", "30"], in: folder)
        let rows = try reportAndSites(folder.url.appendingPathComponent("profile.sqlite").path)
        let db = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("profile.sqlite").path)
        #expect(try db.scalar("SELECT count(*) FROM site_runs")?.int64 == Int64(Self.scenarios.count))
        #expect(try db.scalar("SELECT SUM(dropped) FROM site_runs")?.int64 == 0)
        #expect(rows.count > 30)
        for row in rows {
            let name = "\(row[1].string ?? "")/\(row[2].string ?? "") in run \(row[0].int64 ?? 0)"
            #expect(row[5] == row[3], "requested bytes of \(name): report \(row[3]), sites \(row[5])")
            #expect(row[6] == row[4], "usable bytes of \(name): report \(row[4]), sites \(row[6])")
        }
        // Lazy-container's Label (705 B eager) is named by the user's functions.
        let sites = try db.rows("SELECT DISTINCT site FROM site_summary WHERE component = 'Label' AND strategy = 'eager' AND kind = 'create'")
            .compactMap { $0.first?.string }
        #expect(sites.contains { $0.hasPrefix("ProfilerCatalog.Label.") }, "\(sites)")
    }

    @Test("the same scenario reports the same bytes with and without --sites")
    func sameBytes() throws {
        // Scenarios whose requested bytes repeat exactly between identical runs. (Usable
        // bytes do not: glibc's realloc grows a block in place by what lies next to it, so
        // they vary run to run with or without --sites; composite-cell's first template cell
        // measures one-time runtime costs, which also vary run to run.)
        let scenarios = ["lazy-container", "lazy-list", "identity"]
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(scenarios + ["--instances", "40"], db: "plain.sqlite", in: folder)
        try ProfctlProcess.record(scenarios + ["--instances", "40", "--sites"], db: "sites.sqlite", in: folder)
        func bytes(_ name: String) throws -> [[SQLValue]] {
            let db = try ProfileStore.openForReading(path: folder.url.appendingPathComponent(name).path)
            return try db.rows("""
                SELECT r.scenario, x.component, x.strategy, x.requested_bytes, x.allocations
                FROM rollups x JOIN runs r ON r.run_key = x.run_key ORDER BY x.run_key, x.ordinal
                """)
        }
        let plain = try bytes("plain.sqlite"), sites = try bytes("sites.sqlite")
        #expect(plain.count > 10)
        #expect(plain == sites)
    }

    @Test("--site-depth is checked")
    func siteDepthChecked() throws {
        let folder = try TemporaryFolder()
        for arguments in [["--sites", "--site-depth", "0"], ["--sites", "--site-depth", "129"], ["--site-depth", "8"]] {
            let result = try ProfctlProcess.run(["record", "lazy-container"] + arguments, in: folder.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--site-depth"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))
    }

    @Test("export --format pprof when only an older run has sites: names that run and the command, not 'no run with sites'")
    func pprofOlderSiteRun() throws {
        let folder = try TemporaryFolder()
        let first = try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--sites"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        let siteRun = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines).prefix(8)
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder.url).status == 0)
        let result = try ProfctlProcess.run(["export", "--format", "pprof", "-o", "t.pb"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the newest that was is lazy-container run \(siteRun): profctl export --format pprof --run \(siteRun)"),
                "\(result.stderr)")
    }

    @Test("run from PATH (argv[0] a bare name), sites still name the user's functions, not swift_slowAlloc")
    func recordedFromPath() throws {
        let folder = try TemporaryFolder()
        let path = ProfctlProcess.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let record = try ProfctlProcess.run(executable: env, ["profctl", "record", "lazy-container", "--instances", "10", "--sites", "--quiet"],
                                            environment: ["PATH": path], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let sites = try ProfctlProcess.run(["sites", "--component", "Label", "--strategy", "eager", "--format", "csv"], in: folder.url)
        #expect(sites.status == 0, "\(sites.stderr)")
        #expect(sites.stdout.contains("ProfilerCatalog.Label.__allocating_init"), "\(sites.stdout)")
        #expect(!sites.stdout.contains("swift_slowAlloc"), "\(sites.stdout)")
    }

    @Test("profctl sites: a table that sums to the report, filters checked by name (exit 64 with the choices), a tree")
    func sitesCommand() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--sites"], in: folder)
        let json = try ProfctlProcess.run(["sites", "--component", "Label", "--strategy", "eager", "--kind", "create", "--format", "json"], in: folder.url)
        #expect(json.status == 0, "\(json.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let live = rows.compactMap { $0["live_requested_bytes"] as? Int }.reduce(0, +)
        let report = try ProfctlProcess.run(["report", "--format", "json"], in: folder.url)
        let reportRows = try #require((try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        let label = try #require(reportRows.first { $0["component"] as? String == "Label" && $0["strategy"] as? String == "eager" })
        let perInstance = try #require(label["bytes_per_instance"] as? Double)
        let instances = try #require(label["instances"] as? Int)
        #expect(Double(live) == perInstance * Double(instances))
        #expect(rows.contains { ($0["site"] as? String)?.hasPrefix("ProfilerCatalog.Label.") == true })

        for (option, value, known) in [("--component", "Nope", "Button, ImageView, Label"), ("--strategy", "nope", "eager, lazy, lazy-realized")] {
            let bad = try ProfctlProcess.run(["sites", option, value], in: folder.url)
            #expect(bad.status == 64, "\(bad.stderr)")
            #expect(bad.stderr.contains(known), "\(bad.stderr)")
        }
        let badKind = try ProfctlProcess.run(["sites", "--kind", "bogus"], in: folder.url)
        #expect(badKind.status == 64 && badKind.stderr.contains("create, realize, hit, miss, evict, release"))

        let html = try ProfctlProcess.run(["sites", "--component", "Label", "--strategy", "eager", "--format", "html"], in: folder.url)
        #expect(html.status == 0)
        #expect(html.stdout.contains("<svg class=\"chart icicle\""))
        #expect(html.stdout.contains("Label / eager / create: "))
        #expect(html.stdout.contains("<title>ProfilerCatalog.Label.__allocating_init"), "\(html.stdout.prefix(600))")
        // Zoom and search come from an inline script; nothing is loaded from elsewhere.
        #expect(html.stdout.contains("<script>") && !html.stdout.contains("<script src"))
        // The report's HTML page carries the same icicles for a run recorded with --sites.
        let page = try ProfctlProcess.run(["report", "--format", "html"], in: folder.url)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("allocation sites"))
        #expect(page.stdout.contains("Label / eager / create: "))
        #expect(page.stdout.contains("<title>ProfilerCatalog.Label.__allocating_init"))

        let tree = try ProfctlProcess.run(["sites", "--component", "Label", "--strategy", "eager", "--kind", "create", "--tree"], in: folder.url)
        #expect(tree.status == 0)
        #expect(tree.stdout.hasPrefix("Label / eager / create: \(live) B live"), "\(tree.stdout.prefix(200))")
    }

    @Test("profctl sites on an empty database, and on one with no --sites run")
    func sitesWithoutSites() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.url.appendingPathComponent("empty.sqlite").path, contents: Data())
        let empty = try ProfctlProcess.run(["sites", "--db", "empty.sqlite"], in: folder.url)
        #expect(empty.status == 10, "\(empty.stderr)")
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let none = try ProfctlProcess.run(["sites"], in: folder.url)
        #expect(none.status == 1)
        #expect(none.stderr.contains("record --sites"), "\(none.stderr)")
    }

    @Test("export --format pprof: go tool pprof -top reads it, with the user's function names")
    func pprofExport() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--sites"], in: folder)
        let export = try ProfctlProcess.run(["export", "--run", "latest", "--format", "pprof", "-o", "sites.pb.gz"], in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("sites.pb.gz"))
        #expect(data.prefix(2) == Data([0x1f, 0x8b]))
        // Debian's golang-go (scripts/ensure-deps --tests installs it).
        let go = try #require(["/usr/bin/go", "/usr/local/go/bin/go", "/usr/lib/go/bin/go"].first { FileManager.default.isExecutableFile(atPath: $0) },
                              "go is not installed: run scripts/ensure-deps --tests (it installs Debian's golang-go)")
        let top = try ProfctlProcess.run(executable: URL(fileURLWithPath: go),
                                         ["tool", "pprof", "-top", "-sample_index=alloc_space", "-tagfocus=component=Label", "sites.pb.gz"],
                                         environment: ["HOME": folder.url.path, "GOCACHE": folder.url.appendingPathComponent("gocache").path],
                                         in: folder.url)
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stdout.contains("Type: alloc_space"), "\(top.stdout)")
        #expect(top.stdout.contains("tagfocus=component=Label"))
        let traces = try ProfctlProcess.run(executable: URL(fileURLWithPath: go),
                                            ["tool", "pprof", "-traces", "-tagfocus=component=Label", "sites.pb.gz"],
                                            environment: ["HOME": folder.url.path], in: folder.url)
        #expect(traces.stdout.contains("ProfilerCatalog.Label."), "\(traces.stdout.prefix(400))")
        for type in ["alloc_objects", "inuse_objects", "inuse_space"] {
            let other = try ProfctlProcess.run(executable: URL(fileURLWithPath: go), ["tool", "pprof", "-top", "-sample_index=\(type)", "sites.pb.gz"],
                                               environment: ["HOME": folder.url.path], in: folder.url)
            #expect(other.stdout.contains("Type: \(type)"), "\(other.stderr)")
        }
        let refused = try ProfctlProcess.run(["export", "--format", "pprof", "--db", "none.sqlite"], in: folder.url)
        #expect(refused.status != 0)
    }

    @Test("every documented go tool pprof command prints what docs/cli.md says: allocated bytes by default, in-use as the second type")
    func pprofDocumentedCommands() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--sites"], in: folder)
        let export = try ProfctlProcess.run(["export", "--run", "latest", "--format", "pprof", "-o", "sites.pb.gz"], in: folder.url)
        try #require(export.status == 0, "\(export.stderr)")
        let go = try #require(["/usr/bin/go", "/usr/local/go/bin/go", "/usr/lib/go/bin/go"].first { FileManager.default.isExecutableFile(atPath: $0) },
                              "go is not installed: run scripts/ensure-deps (it installs Debian's golang-go)")
        func pprof(_ arguments: [String]) throws -> String {
            let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: go), ["tool", "pprof"] + arguments + ["sites.pb.gz"],
                                                environment: ["HOME": folder.url.path, "GOCACHE": folder.url.appendingPathComponent("gocache").path],
                                                in: folder.url)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        /// The figure after "accounting for" in pprof's summary line.
        func accounted(_ text: String) -> String? {
            guard let line = text.split(separator: "\n").first(where: { $0.contains("Showing nodes accounting for") }),
                  let range = line.range(of: "accounting for ") else { return nil }
            return line[range.upperBound...].split(separator: ",").first.map(String.init)
        }
        // The Export help's example and docs/cli.md's first: every allocating function, by bytes allocated.
        let all = try pprof(["-top"])
        #expect(all.contains("Type: alloc_space"), "\(all.prefix(300))")
        #expect(all.contains("ProfilerCatalog.Label."))
        // Label alone: not "0 of ...": exactly the bytes profctl sites lists for Label.
        let label = try pprof(["-top", "-tagfocus=component=Label"])
        #expect(label.contains("Type: alloc_space"))
        #expect(accounted(label).map { $0 != "0" } == true, "\(label.prefix(300))")
        let sites = try ProfctlProcess.run(["sites", "--component", "Label", "--format", "csv"], in: folder.url).stdout
        let rows = sites.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
        let column = try #require(rows.first?.firstIndex(of: "requested_bytes"))
        // The site column may hold quoted commas: count requested_bytes from the right.
        let fromRight = (rows.first?.count ?? 0) - column
        let requested = rows.dropFirst().compactMap { Int($0[$0.count - fromRight]) }.reduce(0, +)
        #expect(requested > 0)
        #expect(accounted(try pprof(["-top", "-unit=B", "-tagfocus=component=Label"])) == "\(requested)B")
        // The second type: what was left, nothing for a round trip that frees all it built.
        let left = try pprof(["-top", "-sample_index=inuse_space", "-tagfocus=component=Label"])
        #expect(left.contains("Type: inuse_space"))
        #expect(accounted(left) == "0", "\(left.prefix(300))")
    }

    /// Two --sites runs of lazy-container; the second made to regress: Label/eager's
    /// biggest site grows by 100 B per instance (and the report with it), one site
    /// vanishes and a new one appears, as a code change would do.
    func regressedPair() throws -> (TemporaryFolder, a: String, b: String, grown: String, vanished: String) {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--sites"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "20", "--sites"], in: folder)
        let db = try ProfileStore.openExistingForWriting(path: folder.url.appendingPathComponent("profile.sqlite").path)
        let runs = try db.rows("SELECT run_id, run_key FROM runs ORDER BY started_at, run_key")
        let (a, b) = (runs[0][0].string ?? "", runs[1][0].string ?? "")
        let bKey = runs[1][1]
        let label = try db.rows("""
            SELECT x.stack_id, st.site_frame_id, f.function FROM sites x JOIN subjects s ON s.subject_id = x.subject_id
            JOIN site_stacks st ON st.stack_id = x.stack_id JOIN site_frames f ON f.frame_id = st.site_frame_id
            WHERE x.run_key = ? AND s.component = 'Label' AND s.strategy = 'eager' AND x.kind_id = 0
            ORDER BY x.live_requested_bytes DESC
            """, [bKey])
        try #require(label.count >= 3)
        let grown = label[0][2].string ?? "", vanished = label[label.count - 1][2].string ?? ""
        try db.run("UPDATE sites SET live_requested_bytes = live_requested_bytes + 2000, requested_bytes = requested_bytes + 2000 WHERE run_key = ? AND stack_id = ? AND kind_id = 0", [bKey, label[0][0]])
        try db.run("DELETE FROM sites WHERE run_key = ? AND stack_id = ? AND kind_id = 0 AND subject_id = (SELECT subject_id FROM subjects WHERE component = 'Label' AND strategy = 'eager')", [bKey, label[label.count - 1][0]])
        try db.run("INSERT INTO site_frames (module, function) VALUES ('profctl', 'ProfilerCatalog.Label.newCache() -> ()')")
        try db.run("INSERT INTO site_stacks (frames, depth, site_frame_id) VALUES ('new', 1, last_insert_rowid())")
        try db.run("""
            INSERT INTO sites SELECT run_key, subject_id, kind_id, (SELECT stack_id FROM site_stacks WHERE frames = 'new'), 20, 0, 640, 640, 640, 640
            FROM sites WHERE run_key = ? AND stack_id = ? AND kind_id = 0
            """, [bKey, label[0][0]])
        try db.run("UPDATE rollups SET requested_bytes = requested_bytes + 2000 WHERE run_key = ? AND component = 'Label' AND strategy = 'eager'", [bKey])
        return (folder, a, b, grown, vanished)
    }

    @Test("sites --diff A B lists the sites that grew, shrank, appeared or vanished, by name")
    func siteDiff() throws {
        let (folder, a, b, grown, vanished) = try regressedPair()
        let diff = try ProfctlProcess.run(["sites", "--diff", String(a.prefix(8)), String(b.prefix(8)), "--component", "Label",
                                           "--strategy", "eager", "--kind", "create", "--format", "json"], in: folder.url)
        #expect(diff.status == 0, "\(diff.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [[String: Any]])
        func change(_ site: String) -> String? { rows.first { $0["site"] as? String == site }?["change"] as? String }
        #expect(rows.count == 3, "\(rows)")
        #expect(change(grown) == "grew")
        #expect(change(vanished) == "vanished")
        #expect(change("ProfilerCatalog.Label.newCache() -> ()") == "appeared")
        #expect(rows.first { $0["site"] as? String == grown }?["delta_bytes"] as? Int == 2000)
        let same = try ProfctlProcess.run(["sites", "--diff", String(a.prefix(8)), String(a.prefix(8))], in: folder.url)
        #expect(same.status == 0 && same.stderr.contains("sites from run \(a) (A) to run \(a) (B): 0 changed"), "\(same.stderr)")
        #expect(diff.stderr.contains("sites from run \(a) (A) to run \(b) (B): 3 changed"), "\(diff.stderr)")
    }

    @Test("check on a byte regression names the sites that grew, appeared and vanished")
    func checkNamesSites() throws {
        let (folder, a, b, grown, vanished) = try regressedPair()
        let check = try ProfctlProcess.run(["check", "--run", b, "--baseline", a], in: folder.url)
        #expect(check.status == 2, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stderr.contains("sites behind the byte regression of lazy-container Label/eager"), "\(check.stderr)")
        #expect(check.stderr.contains("grew +2000 B  [create] \(grown)"), "\(check.stderr)")
        #expect(check.stderr.contains("appeared +640 B  [create] ProfilerCatalog.Label.newCache() -> ()"))
        #expect(check.stderr.contains("vanished"))
        #expect(check.stderr.contains(vanished))
    }

    @Test("merge carries sites: frames and stacks deduplicated, profctl sites on the merged file as on each source, runs without sites too")
    func mergeCarriesSites() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "10", "--sites"], db: "a.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "lazy-list", "--instances", "10", "--sites"], db: "b.sqlite", in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], db: "b.sqlite", in: folder)
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        func siteRuns(_ name: String) throws -> [String] {
            try ProfileStore.openForReading(path: path(name))
                .rows("SELECT r.run_id FROM runs r JOIN site_runs s ON s.run_key = r.run_key ORDER BY r.run_id").compactMap { $0.first?.string }
        }
        let sources = [("a.sqlite", try siteRuns("a.sqlite")), ("b.sqlite", try siteRuns("b.sqlite"))]
        #expect(sources.map(\.1.count) == [1, 2])
        let plainRun = try #require(try ProfileStore.openForReading(path: path("b.sqlite"))
            .scalar("SELECT run_id FROM runs WHERE scenario = 'identity'")?.string)

        let merge = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stderr.contains("b.sqlite: 3 runs added"), "\(merge.stderr)")
        for (file, runs) in sources {
            for run in runs {
                for format in [["--format", "json"], ["--tree"], ["--format", "csv"]] {
                    let source = try ProfctlProcess.run(["sites", "--db", file, "--run", run] + format, in: folder.url)
                    let merged = try ProfctlProcess.run(["sites", "--db", "all.sqlite", "--run", run] + format, in: folder.url)
                    #expect(source.status == 0 && merged.status == 0, "\(merged.stderr)")
                    #expect(source.stdout.count > 200)
                    #expect(merged.stdout == source.stdout, "sites \(format) of run \(run) from \(file)")
                }
            }
        }
        // Frames and stacks stored once: as many as the two inputs hold distinct between them.
        func counts(_ name: String) throws -> [[SQLValue]] {
            try ProfileStore.openForReading(path: path(name)).rows("""
                SELECT (SELECT count(*) FROM site_frames), (SELECT count(*) FROM site_stacks), (SELECT count(*) FROM sites),
                       (SELECT count(*) FROM site_runs)
                """)
        }
        let distinct = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), [path("a.sqlite"), """
            ATTACH '\(path("b.sqlite"))' AS b;
            SELECT count(*) FROM (SELECT module, function, file, line FROM site_frames UNION SELECT module, function, file, line FROM b.site_frames);
            SELECT count(*) FROM (SELECT group_concat(f.module || '|' || f.function || '|' || f.file || '|' || f.line, ';') FROM
                (SELECT sf.stack_id, sf.frame_id FROM site_stack_frames sf ORDER BY sf.stack_id, sf.position) x
                JOIN site_frames f ON f.frame_id = x.frame_id GROUP BY x.stack_id
              UNION SELECT group_concat(f.module || '|' || f.function || '|' || f.file || '|' || f.line, ';') FROM
                (SELECT sf.stack_id, sf.frame_id FROM b.site_stack_frames sf ORDER BY sf.stack_id, sf.position) x
                JOIN b.site_frames f ON f.frame_id = x.frame_id GROUP BY x.stack_id);
            """], in: folder.url).stdout.split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        let (a, b, all) = (try counts("a.sqlite")[0], try counts("b.sqlite")[0], try counts("all.sqlite")[0])
        #expect(all[0].int64 == distinct.first && all[1].int64 == distinct.last, "merged \(all), distinct \(distinct)")
        #expect((all[0].int64 ?? 0) < (a[0].int64 ?? 0) + (b[0].int64 ?? 0), "frames shared by the two files are stored once")
        #expect(all[2].int64 == (a[2].int64 ?? 0) + (b[2].int64 ?? 0))
        #expect(all[3].int64 == 3)
        // Sites still sum to the report in the merged file.
        let siteRunKeys = Set(try ProfileStore.openForReading(path: path("all.sqlite")).rows("SELECT run_key FROM site_runs").compactMap(\.first))
        #expect(siteRunKeys.count == 3)
        for row in try reportAndSites(path("all.sqlite")) where siteRunKeys.contains(row[0]) {
            #expect(row[5] == row[3] && row[6] == row[4], "\(row)")
        }

        // The run recorded without --sites merged with everything else, and has no sites.
        let report = try ProfctlProcess.run(["report", "--db", "all.sqlite", "--run", plainRun, "--format", "csv"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.split(whereSeparator: \.isNewline).count > 1)
        let none = try ProfctlProcess.run(["sites", "--db", "all.sqlite", "--run", plainRun], in: folder.url)
        #expect(none.status == 1 && none.stderr.contains("record --sites"), "\(none.stderr)")
        // Merging again adds nothing, sites included.
        let again = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(again.status == 0)
        #expect(try counts("all.sqlite")[0] == all)
    }
}
