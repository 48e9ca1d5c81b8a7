import Foundation
import Testing

/// An option a command would have dropped without a word is refused instead (exit 64,
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
}
