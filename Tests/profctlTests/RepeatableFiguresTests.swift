import Foundation
import Testing
import ProfctlTestSupport
import Profiler


/// profctl promises bytes and allocations per instance that repeat exactly run to run.
/// live-room's lazy poll-card realize once did not (26 allocations / 4,801 B instead of
/// 27 / 4,833 B in about one identical release run in eight under load): how much a Swift
/// array's first buffer could hold followed the chunk glibc happened to hand back
/// (docs/hooks.md, "Usable sizes in a region"; RegionUsableSizeTests pins the mechanism).
@Suite("Figures repeat run to run", .serialized)
struct RepeatableFiguresTests {
    /// Threads of this test process that keep the cores busy until stopped: load on the
    /// 2-core machine, so a recording's threads interleave differently from run to run.
    final class BusyThreads: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)
        private let count: Int

        init(_ count: Int) {
            self.count = count
            for _ in 0..<count {
                Thread { [self] in
                    var spins: UInt64 = 0
                    while !isStopped { for _ in 0..<100_000 { spins &+= 1 } }
                    _ = keep(spins)
                    done.signal()
                }.start()
            }
        }

        private var isStopped: Bool {
            lock.lock()
            defer { lock.unlock() }
            return stopped
        }

        func stop() {
            lock.lock()
            stopped = true
            lock.unlock()
            for _ in 0..<count { done.wait() }
        }
    }

    @Test("live-room, 8 processes x 3 runs under load: every event's allocations, frees and bytes are identical")
    func liveRoomRepeats() throws {
        let folder = try TemporaryFolder()
        let load = BusyThreads(1)
        defer { load.stop() }
        for _ in 0..<8 {
            let result = try ProfctlProcess.run(["record", "--db", "profile.sqlite", "--quiet", "live-room", "live-room", "live-room"],
                                                in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let db = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("profile.sqlite").path)
        let rows = try db.rows("""
            SELECT run_id, step, component, strategy, instance, kind, allocations, frees, requested_bytes
            FROM event_log ORDER BY run_id, seq
            """)
        var perRun: [String: [String]] = [:]
        for row in rows {
            let figures = row.dropFirst().map { $0.string ?? $0.int64.map(String.init) ?? "?" }.joined(separator: " ")
            perRun[row[0].string ?? "", default: []].append(figures)
        }
        #expect(perRun.count == 24)
        let distinct = Dictionary(grouping: perRun.values, by: { $0 })
        #expect(distinct.count == 1, "\(distinct.count) different event sequences in \(perRun.count) runs")
        if distinct.count > 1, let first = perRun.values.first {
            for other in perRun.values where other != first {
                let differing = zip(first, other).filter { $0 != $1 }.prefix(3).map { "\($0.0) | \($0.1)" }
                Issue.record("first differences: \(differing.joined(separator: "; "))")
                break
            }
        }
    }
}
