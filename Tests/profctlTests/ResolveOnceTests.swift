import Foundation
import Testing
@testable import ProfctlCommands
import Profiler

/// Writes a scenario file into a named pipe for the first reader only, and counts any
/// later reader (answering it with an empty file, so a second parse fails instead of
/// waiting for a writer forever).
final class OneShotPipe: @unchecked Sendable {
    let path: String
    private let text: String
    private let lock = NSLock()
    private var stopped = false
    private var readers = 0
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, text: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.path = path
        self.text = text
    }

    /// How many times the pipe was opened for reading.
    var readCount: Int { lock.withLock { readers } }

    func start() {
        Thread { [self] in
            while !lock.withLock({ stopped }) {
                // Non-blocking: succeeds only while a reader has the pipe open.
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                guard fd >= 0 else { usleep(2_000); continue }
                let first = lock.withLock { readers += 1; return readers == 1 }
                if first { _ = text.withCString { write(fd, $0, strlen($0)) } }
                close(fd)
                // Let that reader see the end of the file and close before looking again.
                usleep(50_000)
            }
            finished.signal()
        }.start()
    }

    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }
}

/// Options are resolved once: a scenario file is read once, and each value a flag sets is
/// checked once, by resolving it against the scenario, with the flag named.
@Suite("record resolves its options once")
struct ResolveOnceTests {
    @Test("a scenario file is read once: record works on a named pipe that can be read only once")
    func scenarioFileOnNamedPipe() throws {
        let folder = try TemporaryFolder()
        let pipe = try OneShotPipe(path: folder.url.appendingPathComponent("feed.yaml").path,
                                   text: "scenario: lazy-list\nname: piped-feed\nparameters:\n  rows: 40\n")
        pipe.start()
        let result = try ProfctlProcess.run(["record", "feed.yaml", "--quiet"], in: folder.url)
        pipe.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(pipe.readCount == 1, "the scenario file was opened \(pipe.readCount) times")
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url)
        #expect(runs.stdout.contains("piped-feed"))
    }

    @Test("--instances out of a scenario's range: exit 64 with the flag and the valid range, nothing recorded",
          arguments: [["lazy-container", "--instances", "0"], ["lazy-container", "--instances", "1000001"],
                      ["feed.yaml", "--instances", "0"]])
    func instancesOutOfRange(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        try "scenario: lazy-list\nname: feed\n".write(to: folder.url.appendingPathComponent("feed.yaml"), atomically: true, encoding: .utf8)
        let result = try ProfctlProcess.run(["record"] + arguments, in: folder.url)
        #expect(result.status == 64)
        let range = arguments[0] == "feed.yaml" ? "1 to 100000" : "1 to 1000000"
        #expect(result.stderr.contains("--instances must be a whole number from \(range) (got \(arguments[2]))"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))
    }

    @Test("the parser leaves record with its plans resolved, which run() records as they are")
    func plansResolvedByParsing() throws {
        let parsed = try Profctl.parseAsRoot(["record", "lazy-list", "lazy-list", "--set", "viewport=12", "--repeat", "2",
                                              "--strategies", "eager"])
        let record = try #require(parsed as? Record)
        let plans = try #require(record.plans)
        #expect(plans.map(\.argument) == ["lazy-list", "lazy-list"])
        let lazyList = try #require(plans.first).resolved
        #expect(lazyList.int("viewport") == 12 && lazyList.repeats == 2 && lazyList.strategies == ["eager"])
        #expect(lazyList.int("rows") == 100, "the default, filled in")
    }
}
