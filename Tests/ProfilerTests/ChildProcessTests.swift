import Foundation
import Testing
@testable import ProfilerRecording
@testable import ProfilerSupport

/// ChildProcess: what `record` runs git (and llvm-symbolizer) with, instead of Foundation's
/// Process, whose waitUntilExit() polls in 50 ms slices.
@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("returns what the program printed and its exit status")
    func outputAndStatus() throws {
        let outcome = try #require(ChildProcess.run("sh", ["-c", "printf 'one\\ntwo'; echo lost >&2; exit 3"]))
        #expect(outcome.status == 3)
        #expect(!outcome.succeeded)
        #expect(String(decoding: outcome.output, as: UTF8.self) == "one\ntwo")
    }

    @Test("hands the input over while reading the output: neither pipe fills up")
    func largeInputAndOutput() throws {
        let input = Array(String(repeating: "0123456789abcdef\n", count: 40_000).utf8)
        let outcome = try #require(ChildProcess.run("cat", [], input: input))
        #expect(outcome.succeeded)
        #expect(outcome.output == input)
    }

    @Test("a program that exits without reading its input ends cleanly (no SIGPIPE for profctl)")
    func unreadInput() throws {
        let outcome = try #require(ChildProcess.run("true", [], input: Array(repeating: 65, count: 1_000_000)))
        #expect(outcome.succeeded)
    }

    @Test("a program that is not installed is nil; one ended by a signal has no status")
    func missingAndSignalled() throws {
        #expect(ChildProcess.run("profctl-no-such-program", []) == nil)
        let killed = try #require(ChildProcess.run("sh", ["-c", "kill -9 $$"]))
        #expect(killed.status == nil)
    }

    @Test("the program's standard input is empty, not profctl's")
    func emptyInput() throws {
        let outcome = try #require(ChildProcess.run("cat", []))
        #expect(outcome.succeeded)
        #expect(outcome.output.isEmpty)
    }

    @Test("git's commit and branch are read through it from a checkout, nothing outside one")
    func gitFromCheckout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(RunEnvironment.git(["rev-parse", "HEAD"], in: folder.path) == nil)
        guard ChildProcess.run("git", ["--version"])?.succeeded == true else {
            Issue.record("git is not installed: the checkout half of this test cannot run")
            return
        }
        let setup = "git init -q -b trunk && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one"
        #expect(ChildProcess.run("sh", ["-c", "cd '\(folder.path)' && \(setup)"])?.succeeded == true)
        let commit = try #require(RunEnvironment.git(["rev-parse", "HEAD"], in: folder.path))
        #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit))
        #expect(CIContext.detect(environment: [:], directory: folder.path).branch == "trunk")
    }
}
