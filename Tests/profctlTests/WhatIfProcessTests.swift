import Foundation
import Testing

/// profctl whatif through the real binary: its tables, its chart, the replay check's exit
/// codes, and every input it refuses with exit 64 and the choices.
@Suite("whatif through profctl")
struct WhatIfProcessTests {
    /// A folder with one image-cache run of a short Zipf trace and one lazy-container run.
    static func prepared() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let lazy = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url)
        #expect(lazy.status == 0, "\(lazy.stderr)")
        let images = try ProfctlProcess.run(["record", "image-cache", "--set", "requests=400", "--set", "images=30",
                                             "--set", "icon_side=8", "--set", "photo_side=64", "--quiet"], in: folder.url)
        #expect(images.status == 0, "\(images.stderr)")
        return folder
    }

    @Test("a curve per policy in every format, the smallest capacity for a hit ratio, and the replay check")
    func curvesAndAnswers() throws {
        let folder = try Self.prepared()
        let table = try ProfctlProcess.run(["whatif", "--policy", "lru,sieve,weak", "--capacity", "4KB,64KB"], in: folder.url)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("policy") == true)
        #expect(lines.count == 2 + 2 + 2 + 1, "\(table.stdout)")
        for format in ["markdown", "csv", "json"] {
            let result = try ProfctlProcess.run(["whatif", "--policy", "fifo,lfu,2q", "--format", format], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("2q"))
        }
        let json = try ProfctlProcess.run(["whatif", "--format", "json", "--hit-ratio", "0.5"], in: folder.url)
        #expect(json.status == 0, "\(json.stderr)")
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout)")
        #expect(json.stdout.contains("exact: stack distances"))
        let check = try ProfctlProcess.run(["whatif", "--check-replay"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.split(separator: "\n").filter { $0.hasSuffix("yes") }.count == 4, "\(check.stdout)")
        let html = try ProfctlProcess.run(["whatif", "--format", "html"], in: folder.url)
        #expect(html.status == 0)
        #expect(html.stdout.contains("<svg class=\"chart\"") && html.stdout.contains("Hit ratio by capacity in bytes"))
    }

    @Test("--check-replay of a scenario file's image-cache run (named by the file) replays it: it exited 1 as if a replay differed")
    func checkReplayOfAScenarioFile() throws {
        let folder = try TemporaryFolder()
        try Data("""
            scenario: image-cache
            name: small-zipf
            parameters:
              requests: 300
              images: 30
              icon_side: 8
              photo_side: 64
            """.utf8).write(to: folder.url.appendingPathComponent("small-zipf.yaml"))
        try ProfctlProcess.record(["small-zipf.yaml"], in: folder)
        let check = try ProfctlProcess.run(["whatif", "--check-replay"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.split(separator: "\n").filter { $0.hasSuffix("yes") }.count == 4, "\(check.stdout)")
    }

    @Test("bad input gets exit 64 with the choices")
    func badInput() throws {
        let folder = try Self.prepared()
        let lazyRun = try ProfctlProcess.run(["query", "SELECT run_id FROM runs WHERE scenario = 'lazy-container'", "--format", "csv"],
                                             in: folder.url).stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let cases: [([String], String)] = [
            (["whatif", "--run", lazyRun], "runs with lookups:"),
            (["whatif", "--policy", "lru,mru"], "valid choices: lru, fifo, lfu, 2q, sieve, weak, sweep, unbounded, none"),
            (["whatif", "--capacity", "0"], "less than one byte"),
            (["whatif", "--capacity", "12 potatoes"], "B, KB, MB, GB, KiB, MiB, GiB"),
            (["whatif", "--by", "entries", "--capacity", "1.5"], "whole number of entries"),
            (["whatif", "--hit-ratio", "1.5"], "above 0 and at most 1"),
            (["whatif", "--strategy", "lru-cache"], "known: no-cache, strong-cache, sweep-cache, weak-cache"),
            (["whatif", "--by", "pages"], "'bytes' and 'entries'"),
            // An option the mode does not read: a typo'd --strategy passed the replay gate
            // (exit 0), and --capacity beside --hit-ratio was dropped without a word.
            (["whatif", "--check-replay", "--strategy", "nocache"], "leave out --policy, --capacity, --hit-ratio and --strategy"),
            (["whatif", "--check-replay", "--strategy", "no-cache"], "leave out --policy, --capacity, --hit-ratio and --strategy"),
            (["whatif", "--hit-ratio", "0.5", "--capacity", "4KB"], "leave out --capacity"),
        ]
        for (arguments, expected) in cases {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        // A database with no cache lookups at all.
        let empty = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: empty.url)
        let none = try ProfctlProcess.run(["whatif"], in: empty.url)
        #expect(none.status == 64)
        #expect(none.stderr.contains("profctl record image-cache"), "\(none.stderr)")
    }
}
