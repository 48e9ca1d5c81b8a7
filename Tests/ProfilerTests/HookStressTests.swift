import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("Hooks under stress")
struct HookStressTests {
    /// Blocks handed from one thread to another, to be freed there.
    final class Mailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var blocks: [(address: UInt, size: Int)] = []
        init() { blocks.reserveCapacity(1_000_000) }
        func put(_ address: UInt, _ size: Int) { lock.withLock { blocks.append((address, size)) } }
        func take() -> (address: UInt, size: Int)? { lock.withLock { blocks.popLast() } }
    }

    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var regions = 0
        private(set) var misattributed: [String] = []
        private(set) var exactReleases = 0
        private(set) var releases = 0
        func exact(_ ok: Bool) { lock.withLock { releases += 1; if ok { exactReleases += 1 } } }
        func record(_ ok: Bool, _ what: @autoclosure () -> String) {
            lock.withLock {
                regions += 1
                if !ok && misattributed.count < 10 { misattributed.append(what()) }
            }
        }
    }

    @Test("8 threads allocating here and freeing there for 2 seconds: exact regions, consistent totals, no crash",
          .timeLimit(.minutes(1)))
    func eightThreads() throws {
        let mailboxes = (0..<8).map { _ in Mailbox() }
        let tally = Tally()
        let deadline = AllocationScope.monotonicNanoseconds() + 2_000_000_000
        let group = DispatchGroup()
        for index in 0..<8 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var size = 16 + index * 8
                while AllocationScope.monotonicNanoseconds() < deadline {
                    size = size % 4000 + 24
                    // A region that allocates two blocks and keeps one: exactly `size` retained.
                    guard let measured = try? AllocationScope.measure({ () -> UInt in
                        let kept = malloc(size)
                        free(malloc(size / 2 + 1))
                        return UInt(bitPattern: kept)
                    }) else { tally.record(false, "no slot"); continue }
                    let a = measured.allocations
                    tally.record(a.allocations == 2 && a.retainedRequestedBytes == size && a.requestedBytes == size + size / 2 + 1,
                                 "thread \(index): \(a)")
                    // The kept block goes to the next thread, which frees it; free what others sent
                    // here, in a region that must count exactly those bytes as released.
                    mailboxes[(index + 1) % 8].put(measured.value, size)
                    guard let freed = try? AllocationScope.measure({ () -> Int in
                        var total = 0
                        while let block = mailboxes[index].take() {
                            free(UnsafeMutableRawPointer(bitPattern: block.address))
                            total += block.size
                        }
                        return total
                    }) else { continue }
                    // Every block handed over counts; the runtime may now and then free one of its
                    // own earlier measured blocks on this thread too, so at least, not exactly.
                    tally.record(freed.allocations.releasedRequestedBytes >= freed.value,
                                 "thread \(index) freed \(freed.value) but released \(freed.allocations.releasedRequestedBytes)")
                    tally.exact(freed.allocations.releasedRequestedBytes == freed.value)
                }
            }
            thread.start()
        }
        group.wait()
        for mailbox in mailboxes { while let block = mailbox.take() { free(UnsafeMutableRawPointer(bitPattern: block.address)) } }
        #expect(tally.regions > 1000)
        #expect(tally.misattributed.isEmpty, "\(tally.misattributed)")
        #expect(tally.exactReleases * 100 >= tally.releases * 99, "\(tally.exactReleases) of \(tally.releases) exact")
        let totals = AllocationHooks.totals
        #expect(totals.frees <= totals.allocations)
    }

    /// A fast free gives no room back to the fast insert (it counts a temporary, which the
    /// next settle takes off the table's live count): a table kept near half full by steady
    /// churn must still count every region exactly, grow instead of filling, and not hang.
    @Test("a table kept near half full by churn: every region exact, every block found again", .timeLimit(.minutes(1)))
    func churnNearHalfFull() throws {
        final class Result: @unchecked Sendable { var failures: [String] = []; var regions = 0 }
        let result = Result()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let churn = 20_000
            let blocks = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 2000)
            defer { blocks.deallocate() }
            // Kept counts around the tables' thresholds (3/8 and 1/2 of 1,024 and 2,048 slots);
            // the first region warms up and is not checked.
            for (round, kept) in [10, 380, 500, 511, 760, 1020, 1500].enumerated() {
                guard let measured = try? AllocationScope.measure({
                    for i in 0..<kept { blocks[i] = malloc(16 + i % 64) }
                    for i in 0..<churn { free(malloc(24 + i % 40)) }
                    for i in 0..<kept { free(blocks[i]) }
                }) else { result.failures.append("\(kept): no region"); continue }
                if round == 0 { continue }
                result.regions += 1
                let a = measured.allocations
                if a.allocations < kept + churn || a.frees < kept + churn || a.retainedRequestedBytes != 0 {
                    result.failures.append("\(kept) kept: \(a)")
                }
            }
        }
        thread.start()
        done.wait()
        #expect(result.regions == 6)
        #expect(result.failures.isEmpty, "\(result.failures)")
    }
}
