import Foundation
import Testing

/// `check --leaks` on a run recorded with --types names the types of what stayed
/// (docs/leaks.md, "Which types stay"), where the types add up to it exactly.
@Suite("check --leaks names the types that stayed")
struct LeakTypesProcessTests {
    @Test("retain cycles are named by type in every format, adding up to what stayed; a partial leak says why it is not named")
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
        #expect(github.split(separator: "\n").contains { $0.hasPrefix("::error") && $0.contains("strong-self-closure") && $0.contains("stayed: ") },
                "\(github)")

        let json = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let verdicts = try #require((object["leaks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
        func verdict(_ strategy: String) throws -> [String: Any] { try #require(verdicts.first { $0["strategy"] as? String == strategy }) }
        for strategy in ["strong-self-closure", "strong-delegate"] {
            let v = try verdict(strategy)
            let types = try #require(v["types"] as? [[String: Any]], "\(strategy): \(v)")
            // Named only where they add up exactly to the blocks and bytes left behind.
            #expect(types.compactMap { $0["objects"] as? Int }.reduce(0, +) == v["retained_blocks"] as? Int, "\(strategy): \(types)")
            #expect(types.compactMap { $0["bytes"] as? Int }.reduce(0, +) == v["retained_bytes"] as? Int, "\(strategy): \(types)")
        }
        let delegate = try #require(try verdict("strong-delegate")["types"] as? [[String: Any]])
        #expect(delegate.contains { $0["type"] as? String == "ProfilerCatalog.StrongDelegateDownloader" && $0["objects"] as? Int == 9 }, "\(delegate)")
        let ticker = try #require(try verdict("strong-self-closure")["types"] as? [[String: Any]])
        #expect(ticker.contains { $0["type"] as? String == "ProfilerCatalog.TickerScreen" && $0["objects"] as? Int == 9 }, "\(ticker)")
        // The observers' hub keeps an entry and the screen is freed: no type is named, and the note says why.
        let observers = try verdict("unpruned-observers")
        #expect(observers["types"] is NSNull && (observers["types_note"] as? String)?.contains("types not named") == true, "\(observers)")
        // What passes names nothing.
        #expect(try verdict("weak-self-closure")["types"] is NSNull && verdict("weak-self-closure")["types_note"] is NSNull)

        // Recorded without --types: no list and no note.
        try ProfctlProcess.record(["swift-leaks", "--instances", "3", "--repeat", "3", "--strategies", "strong-self-closure"], in: folder)
        let without = try ProfctlProcess.run(["check", "--leaks", "--format", "json"], in: folder.url)
        #expect(without.stdout.contains("\"types\": null, \"types_note\": null") && !without.stdout.contains("TickerScreen"), "\(without.stdout)")
    }
}
