import Foundation
import Testing
import Profiler

/// `record --sites` in a real profctl process: sites add up to the report exactly, and
/// capturing them changes no measured byte.
@Suite("Allocation sites, recorded by profctl")
struct SitesProcessTests {
    static let scenarios = ["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "live-room"]

    func record(_ arguments: [String], in folder: TemporaryFolder, db: String = "profile.sqlite") throws {
        let result = try ProfctlProcess.run(["record", "--db", db, "--quiet"] + arguments, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

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
        try record(Self.scenarios + ["--sites", "--instances", "30"], in: folder)
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
        #expect(sites.contains { $0.hasPrefix("Profiler.Label.") }, "\(sites)")
    }

    @Test("the same scenario reports the same bytes with and without --sites")
    func sameBytes() throws {
        // Scenarios whose requested bytes repeat exactly between identical runs. (Usable
        // bytes do not: glibc's realloc grows a block in place by what lies next to it, so
        // they vary run to run with or without --sites; composite-cell's first template cell
        // measures one-time runtime costs, which also vary run to run.)
        let scenarios = ["lazy-container", "lazy-list", "identity"]
        let folder = try TemporaryFolder()
        try record(scenarios + ["--instances", "40"], in: folder, db: "plain.sqlite")
        try record(scenarios + ["--instances", "40", "--sites"], in: folder, db: "sites.sqlite")
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
}
