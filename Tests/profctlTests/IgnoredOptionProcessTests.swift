import Foundation
import Testing

/// An option a command would have dropped without a word, or a request that can only
/// print rows of nothing (compare of two kinds of report), is refused instead (exit 64,
/// saying which option and why), as a misspelt name is: the reader of the output must be
/// able to trust that everything typed was applied. whatif's own cases are in
/// WhatIfProcessTests.
@Suite("Options a command would ignore, through profctl")
struct IgnoredOptionProcessTests {
    @Test("report --bytes usable of reports that have no usable bytes (image-cache alone): exit 64; with a savings report it applies")
    func usableBytesOfOtherReports() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["image-cache", "lazy-container", "--instances", "5"], in: folder)
        for arguments in [["--scenario", "image-cache"], ["--scenario", "image-cache", "--format", "json"]] {
            let result = try ProfctlProcess.run(["report", "--bytes", "usable"] + arguments, in: folder.url)
            #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("--bytes usable applies to savings reports"), "\(result.stderr)")
            #expect(result.stderr.contains("image-cache"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        // Every scenario: lazy-container's report takes it, image-cache's is shown as it is.
        let all = try ProfctlProcess.run(["report", "--bytes", "usable"], in: folder.url)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("usable bytes, against eager"), "\(all.stdout)")
        let requested = try ProfctlProcess.run(["report", "--bytes", "requested", "--scenario", "image-cache"], in: folder.url)
        #expect(requested.status == 0, "\(requested.stderr)")
    }

    @Test("compare of a lazy-container run and an image-cache run: exit 64, where every row read new or missing (exit 0)")
    func compareAcrossReports() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "image-cache", "--instances", "5"], in: folder)
        let ids = try ProfctlProcess.run(["query", "SELECT run_id FROM runs ORDER BY started_at", "--format", "csv"], in: folder.url)
            .stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init)
        try #require(ids.count == 2, "\(ids)")
        let across = try ProfctlProcess.run(["compare", ids[0], ids[1]], in: folder.url)
        #expect(across.status == 64, "\(across.stdout)\(across.stderr)")
        #expect(across.stderr.contains("no metric in common"), "\(across.stderr)")
        #expect(across.stdout.isEmpty)
        let same = try ProfctlProcess.run(["compare", ids[0], ids[0]], in: folder.url)
        #expect(same.status == 0, "\(same.stderr)")
    }

    @Test("--db and --store together: exit 64 naming both, where --db was dropped; no server is needed to say so")
    func databaseAndStore() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        // Port 1: were the store read, this would be exit 20 (cannot reach it).
        let store = "postgres://ci:secret@127.0.0.1:1/profctl"
        for command in [["runs"], ["report"], ["baseline", "list"], ["baseline", "set", "main"], ["trend", "--scenario", "lazy-container", "--metric", "bytes_per_instance"]] {
            let result = try ProfctlProcess.run(command + ["--db", "local.sqlite", "--store", store], in: folder.url)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--db local.sqlite and --store"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("secret"), "the URL's password is not echoed: \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command)")
        }
        let labels = try ProfctlProcess.run(["baseline", "list", "--db", "local.sqlite", "--format", "csv"], in: folder.url)
        #expect(labels.stdout.split(whereSeparator: \.isNewline).count == 1, "\(labels.stdout)")
    }
}
