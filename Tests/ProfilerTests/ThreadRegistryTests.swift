import CAllocationHooks
import Foundation
import Synchronization
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

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

    @Test("a fork while another thread holds the registry's lock leaves the child able to start threads and sum")
    func forkWhileTheRegistryIsLocked() throws {
        // Summing the totals in a loop holds the registry's lock most of the time: without the
        // hooks' fork handler about every other child inherited it held, and hung at its first
        // new thread (join) or its first sum.
        keepSumming.store(true, ordering: .relaxed)
        var summer = pthread_t()
        try #require(pthread_create(&summer, nil, { _ in
            var totals = profctl_totals()
            while keepSumming.load(ordering: .relaxed) { profctl_hooks_totals(&totals) }
            return nil
        }, nil) == 0)
        defer {
            keepSumming.store(false, ordering: .relaxed)
            pthread_join(summer, nil)
        }
        var hung = 0, failed = 0
        for _ in 0..<30 {
            let child = fork()
            try #require(child >= 0, "fork failed: errno \(errno)")
            if child == 0 {
                // The child: C calls only (another thread of the parent may have held a Swift
                // runtime lock at the fork). A new thread joins the registry and allocates.
                var thread = pthread_t()
                guard pthread_create(&thread, nil, { _ in
                    let block = malloc(24)
                    _ = profctl_malloc_usable_size(block)  // a C call the block escapes to: kept
                    free(block)
                    return nil
                }, nil) == 0 else { _exit(3) }
                pthread_join(thread, nil)
                var totals = profctl_totals()
                profctl_hooks_totals(&totals)
                _exit(totals.threads_seen > 0 ? 0 : 4)
            }
            var status: Int32 = 0
            var finished = false
            for _ in 0..<1000 where !finished {  // up to 10 s
                finished = waitpid(child, &status, WNOHANG) == child
                if !finished { usleep(10_000) }
            }
            if !finished {
                hung += 1
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
            } else if status != 0 {
                failed += 1
            }
        }
        #expect(hung == 0, "\(hung) of 30 children hung")
        #expect(failed == 0, "\(failed) of 30 children exited with an error")
    }
}

/// Whether forkWhileTheRegistryIsLocked's summing thread goes on.
private let keepSumming = Atomic<Bool>(false)

private final class TotalsBox: @unchecked Sendable {
    var value: AllocationTotals?
}
