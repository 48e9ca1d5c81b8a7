import Foundation
import Testing

/// `check --leaks` on a run recorded with --types names the types of what stayed
/// (docs/leaks.md, "Which types stay"), where the types add up to it exactly.
@Suite("check --leaks names the types that stayed")
struct LeakTypesProcessTests {
    /// The json verdicts of `check --leaks` on the database in `folder` (`--db` when given).
    static func verdicts(in folder: TemporaryFolder, db: String? = nil) throws -> [[String: Any]] {
        let json = try ProfctlProcess.run(["check", "--leaks", "--format", "json"] + (db.map { ["--db", $0] } ?? []), in: folder.url)
        #expect(json.status == 15, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        return try #require((object["leaks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
    }

    static let leaking = ["strong-self-closure", "strong-delegate", "unpruned-observers"]

    @Test("every leaking strategy is named by type, adding up exactly to the blocks and bytes it left, in every format; a partial leak too")
    func typesThatStayed() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--types"], in: folder)
        // Three screens a round, three rounds: every TickerScreen the cycle keeps.
        let stayed = "9 ProfilerCatalog.TickerScreen"
        for format in ["table", "markdown", "junit", "github", "json"] {
            let check = try ProfctlProcess.run(["check", "--leaks", "--format", format], in: folder.url)
            #expect(check.status == 15, "\(format): \(check.stderr)")
            #expect(check.stdout.contains(stayed) || check.stdout.contains("\"objects\": 9"), "\(format): \(check.stdout)")
            #expect(check.stdout.contains("ProfilerCatalog.DownloadScreen"), "\(format): \(check.stdout)")
        }
        let github = try ProfctlProcess.run(["check", "--leaks", "--format", "github"], in: folder.url).stdout
        for strategy in Self.leaking {
            #expect(github.split(separator: "\n").contains { $0.hasPrefix("::error") && $0.contains(strategy) && $0.contains("stayed: ") },
                    "\(strategy): \(github)")
        }

        let verdicts = try Self.verdicts(in: folder)
        func verdict(_ strategy: String) throws -> [String: Any] { try #require(verdicts.first { $0["strategy"] as? String == strategy }) }
        for strategy in Self.leaking {
            let v = try verdict(strategy)
            let types = try #require(v["types"] as? [[String: Any]], "\(strategy): \(v)")
            // Exactly the blocks and bytes left behind, and no note.
            #expect(types.compactMap { $0["objects"] as? Int }.reduce(0, +) == v["retained_blocks"] as? Int, "\(strategy): \(types)")
            #expect(types.compactMap { $0["bytes"] as? Int }.reduce(0, +) == v["retained_bytes"] as? Int, "\(strategy): \(types)")
            #expect(v["types_note"] is NSNull, "\(strategy): \(v)")
        }
        let delegate = try #require(try verdict("strong-delegate")["types"] as? [[String: Any]])
        #expect(delegate.contains { $0["type"] as? String == "ProfilerCatalog.StrongDelegateDownloader" && $0["objects"] as? Int == 9 }, "\(delegate)")
        let ticker = try #require(try verdict("strong-self-closure")["types"] as? [[String: Any]])
        #expect(ticker.contains { $0["type"] as? String == "ProfilerCatalog.TickerScreen" && $0["objects"] as? Int == 9 }, "\(ticker)")
        // The observers' hub keeps an entry per screen and each screen is freed: the screen is
        // not among what stayed, the hub's entries are.
        let observers = try #require(try verdict("unpruned-observers")["types"] as? [[String: Any]])
        #expect(!observers.contains { ($0["type"] as? String)?.hasSuffix("ThemedScreen") == true }, "\(observers)")
        for kept in ["ProfilerCatalog.ObserverHub.Observation", "(closure context or box)", "(not a Swift object)"] {
            #expect(observers.contains { $0["type"] as? String == kept && $0["objects"] as? Int == 9 }, "\(kept): \(observers)")
        }
        // What passes names nothing.
        #expect(try verdict("weak-self-closure")["types"] is NSNull && verdict("weak-self-closure")["types_note"] is NSNull)

        // merge copies what later events gave back: the merged file names the same types.
        let merge = try ProfctlProcess.run(["merge", "merged.sqlite", "profile.sqlite"], in: folder.url)
        #expect(merge.status == 0, "\(merge.stderr)")
        let merged = try Self.verdicts(in: folder, db: "merged.sqlite")
        for strategy in Self.leaking {
            let here = try #require(verdicts.first { $0["strategy"] as? String == strategy }?["types"] as? [[String: Any]])
            let there = try #require(merged.first { $0["strategy"] as? String == strategy }?["types"] as? [[String: Any]])
            #expect(here.map { "\($0["type"] ?? "") \($0["objects"] ?? "") \($0["bytes"] ?? "")" }
                    == there.map { "\($0["type"] ?? "") \($0["objects"] ?? "") \($0["bytes"] ?? "")" }, "\(strategy)")
        }

        // Recorded without --types: no list and no note.
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--strategies", "strong-self-closure"], in: folder)
        let without = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        #expect(without.stdout.contains("\"types\": null, \"types_note\": null") && !without.stdout.contains("TickerScreen"), "\(without.stdout)")
    }

    @Test("a run recorded before the types counted what was given back names a retain cycle, and says to record a partial leak again")
    func olderRun() throws {
        let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: sqlite3.path) else {
            Issue.record("skipped: needs the sqlite3 shell (scripts/ensure-deps --tests installs it)")
            return
        }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--types",
                                   "--strategies", "strong-self-closure,unpruned-observers"], in: folder)
        // What a run recorded before schema version 23 holds: no releases (the columns' defaults).
        let old = try ProfctlProcess.run(executable: sqlite3, [folder.url.appendingPathComponent("profile.sqlite").path, """
            UPDATE object_type_runs SET releases = 0; UPDATE object_types SET released_objects = 0, released_requested_bytes = 0;
            """], in: folder.url)
        #expect(old.status == 0, "\(old.stderr)")
        let verdicts = try Self.verdicts(in: folder)
        let ticker = try #require(verdicts.first { $0["strategy"] as? String == "strong-self-closure" })
        #expect((ticker["types"] as? [[String: Any]])?.contains { $0["type"] as? String == "ProfilerCatalog.TickerScreen" } == true, "\(ticker)")
        let observers = try #require(verdicts.first { $0["strategy"] as? String == "unpruned-observers" })
        #expect(observers["types"] is NSNull, "\(observers)")
        #expect((observers["types_note"] as? String)?.contains("record it again with type capture on") == true, "\(observers)")
    }
}
