import CAllocationHooks
import Foundation
import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

/// The key whose destructor first calls the hooks in the last round of a thread's TLS
/// destructors, after the hooks' own exit key could still run: such a thread exits without
/// leaving the registry, and a new thread that reuses its TLS block sits at the same address.
nonisolated(unsafe) private var lastRoundKey = pthread_key_t()
/// Somewhere a block's address goes, so the compiler cannot drop a malloc/free pair.
nonisolated(unsafe) private var sink: UnsafeMutableRawPointer?

/// glibc runs key destructors for at most four rounds (PTHREAD_DESTRUCTOR_ITERATIONS).
private let destructorRounds = 4

private func lastRoundAllocates(_ value: UnsafeMutableRawPointer?) {
    let round = Int(bitPattern: value)
    if round < destructorRounds {
        pthread_setspecific(lastRoundKey, UnsafeRawPointer(bitPattern: round + 1))
        return
    }
    sink = malloc(40)
    free(sink)
}

/// Allocates nothing itself: its first call into the hooks is the destructor's last round.
private func lateJoiner(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    pthread_setspecific(lastRoundKey, UnsafeRawPointer(bitPattern: 1))
    return nil
}

private func plainAllocator(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    sink = malloc(24)
    free(sink)
    return nil
}

@Suite("Thread registry")
struct ThreadRegistryTests {
    @Test("threads that reuse the TLS of a thread that exited unregistered do not hang the totals")
    func reusedTLSDoesNotLoopTheRegistry() throws {
        // This thread has called the hooks, so their exit key exists before this key.
        sink = malloc(8)
        free(sink)
        try #require(pthread_key_create(&lastRoundKey, { lastRoundAllocates($0) }) == 0)
        defer { pthread_key_delete(lastRoundKey) }
        let before = AllocationHooks.totals
        // One at a time, so that each thread takes the stack (and TLS block) the last one left.
        for i in 0..<200 {
            var thread = pthread_t()
            let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? =
                i % 2 == 0 ? { lateJoiner($0) } : { plainAllocator($0) }
            try #require(pthread_create(&thread, nil, body, nil) == 0)
            pthread_join(thread, nil)
        }
        // Summed on a thread of its own: before the fix this looped forever under the registry lock.
        let summed = DispatchSemaphore(value: 0)
        let box = TotalsBox()
        Thread {
            box.value = AllocationHooks.totals
            summed.signal()
        }.start()
        try #require(summed.wait(timeout: .now() + 20) == .success, "summing the counters did not finish in 20 s")
        let after = try #require(box.value)
        #expect(after.threadsSeen >= before.threadsSeen + 200)
        #expect(after.allocations >= before.allocations + 100)
    }
}

private final class TotalsBox: @unchecked Sendable {
    var value: AllocationTotals?
}
