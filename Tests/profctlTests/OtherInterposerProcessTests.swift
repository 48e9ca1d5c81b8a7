import Foundation
import Testing

/// Another malloc interposer in a process with the hooks: heaptrack (LD_PRELOAD) on
/// `profctl record` and on a user's own binary, and glibc's own LD_PRELOAD debugging malloc. The hooks define malloc in the executable,
/// ahead of heaptrack's library, which then never saw a call, never opened its data pipe,
/// and heaptrack waited on that pipe for ever. The hooks now find the other interposer on
/// their first call and forward to it (docs/hooks.md, "Another profiler in the process").
/// Each run is bounded by `timeout`, which ends heaptrack's whole process group, so a
/// regression fails here instead of hanging the suite.
@Suite("Another malloc interposer in the process", .serialized)
struct OtherInterposerProcessTests {
    static let heaptrack = HeaptrackTool.installed

    @Test("heaptrack on profctl record ends, its file holds the allocations, and the run is recorded",
          .enabled(if: heaptrack, HeaptrackTool.missingMessage))
    func recordUnderHeaptrack() throws {
        let folder = try TemporaryFolder()
        let traced = try HeaptrackTool.trace(ProfctlProcess.binary,
                                             ["record", "lazy-container", "--instances", "20", "--db", "p.sqlite"], in: folder.url)
        #expect(traced.status == 0, "heaptrack profctl record exited \(traced.status): \(traced.output)")
        #expect(traced.allocations > 1000, "heaptrack recorded \(traced.allocations) allocations")
        #expect(traced.output.contains("profctl hooks: another malloc interposer is loaded"), "\(traced.output)")
        #expect(traced.output.contains("libheaptrack_preload"), "the message names heaptrack's library: \(traced.output)")
        let runs = try ProfctlProcess.run(["runs", "--db", "p.sqlite", "--format", "csv"], in: folder.url)
        #expect(runs.status == 0 && runs.stdout.contains("lazy-container"), "\(runs.stdout)\(runs.stderr)")
    }

    @Test("heaptrack on a user's example binary ends, and its file holds the allocations",
          .enabled(if: heaptrack, HeaptrackTool.missingMessage))
    func exampleUnderHeaptrack() throws {
        let folder = try TemporaryFolder()
        let traced = try HeaptrackTool.trace(OwnComponentsExample.binary,
                                             ["--db", "components.sqlite", "--instances", "20", "--quiet"], in: folder.url)
        #expect(traced.status == 0, "heaptrack own-components-example exited \(traced.status): \(traced.output)")
        #expect(traced.allocations > 1000, "heaptrack recorded \(traced.allocations) allocations")
    }

    static let mallocDebug = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"

    /// glibc's libc_malloc_debug.so defines only versioned symbols (malloc@GLIBC_2.2.5), which
    /// an unversioned lookup passes over: found all the same, and chained.
    @Test("glibc's debugging malloc preloaded: found, chained, and the example records",
          .enabled(if: FileManager.default.fileExists(atPath: mallocDebug), "glibc's libc_malloc_debug.so.0 is NOT here: NOT checked"))
    func glibcDebuggingMalloc() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                            ["--db", "components.sqlite", "--instances", "20", "--quiet"],
                                            environment: ["LD_PRELOAD": Self.mallocDebug, "MALLOC_CHECK_": "3", "PROFCTL_HOOKS_CHAIN": "0"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("another malloc interposer is loaded (\(Self.mallocDebug))"), "\(record.stderr)")
        let report = try ProfctlProcess.run(["report", "--db", "components.sqlite", "--format", "csv"], in: folder.url)
        #expect(report.status == 0 && report.stdout.contains("ProfileCard"), "\(report.stdout)\(report.stderr)")
    }
}

/// Runs a program under heaptrack, bounded in time, and counts what its data file holds.
enum HeaptrackTool {
    static let missingMessage: Comment =
        "heaptrack is NOT installed (apt-get install heaptrack): another profiler's preload was NOT checked"

    /// Seconds before `timeout` ends a run: a hang, on a loaded machine a slow one.
    static let limit = 300

    static var installed: Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let found = ["heaptrack", "timeout", "zstd"].allSatisfy { tool in
            paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        if !found { FileHandle.standardError.write(Data("WARNING: \(missingMessage)\n".utf8)) }
        return found
    }

    struct Traced {
        /// heaptrack's exit status (124 when `timeout` ended it) and everything it and the program printed.
        let status: Int32
        let output: String
        /// Allocations in heaptrack's data file (its `+` lines).
        let allocations: Int
    }

    static func trace(_ executable: URL, _ arguments: [String], in folder: URL) throws -> Traced {
        let data = folder.appendingPathComponent("heaptrack-data")
        // PROFCTL_HOOKS_CHAIN unset (0): the hooks must find heaptrack themselves.
        let run = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                         ["timeout", "-k", "10", "\(limit)", "heaptrack", "-o", data.path, executable.path] + arguments,
                                         environment: ["PROFCTL_HOOKS_CHAIN": "0"], in: folder)
        let file = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("heaptrack-data") }
        var allocations = 0
        if let file {
            let decompressor = file.hasSuffix(".zst") ? "zstd" : "gzip"
            let text = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                              [decompressor, "-dc", folder.appendingPathComponent(file).path], in: folder)
            allocations = text.stdout.split(separator: "\n").filter { $0.hasPrefix("+ ") }.count
        }
        return Traced(status: run.status, output: run.stdout + run.stderr, allocations: allocations)
    }
}
