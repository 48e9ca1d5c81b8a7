import Foundation
import Testing
import ProfctlTestSupport
import Profiler
@testable import ProfilerHooks

/// The peak of a region and of the window: its own allocations less its own frees at the
/// highest point, in requested bytes (docs/hooks.md, "Peak"). Known sequences of malloc and
/// free, on a thread of their own (regions) or in a process of their own (the window), so
/// the figures are exact to the byte.
@Suite("Peak of live bytes")
struct PeakTests {
    @Test("100 + 200 allocated, 100 freed, 50 allocated: a region peaks at 300 and keeps 250")
    func regionKnownSequence() throws {
        let (a, blocks) = try twiceAlone { () -> (Allocations, [UInt]) in
            let m = try AllocationScope.measure { () -> (UInt, UInt) in
                let first = malloc(100), second = malloc(200)
                free(first)
                let third = malloc(50)
                return (address(second), address(third))
            }
            return (m.allocations, [m.value.0, m.value.1])
        }
        blocks.forEach { free(UnsafeMutableRawPointer(bitPattern: $0)) }
        #expect(a.requestedBytes == 350)
        #expect(a.retainedRequestedBytes == 250)
        #expect(a.peakRequestedBytes == 300)
    }

    @Test("the peak is reached at the close when nothing is freed, and is 0 for an empty region")
    func regionAtClose() throws {
        let (kept, empty) = try twiceAlone { () -> (Allocations, Allocations) in
            let kept = try AllocationScope.measure { (address(malloc(64)), address(malloc(36))) }
            kept.value.0.freeBlock()
            kept.value.1.freeBlock()
            return (kept.allocations, try AllocationScope.measure { 1 }.allocations)
        }
        #expect(kept.peakRequestedBytes == 100)
        #expect(kept.retainedRequestedBytes == 100)
        #expect(empty.peakRequestedBytes == 0)
    }

    /// The rule: blocks from before the region are not its own. Freeing them never lowers
    /// its live bytes, so its peak is what it held itself (here 100), never 100 less 1,000.
    @Test("frees of blocks from before the region, measured or not, do not lower its peak")
    func earlierBlocksFreed() throws {
        let a = try twiceAlone { () -> Allocations in
            let untracked = malloc(1_000)
            let tracked = try AllocationScope.measure { address(malloc(2_000)) }.value
            let m = try AllocationScope.measure { () -> UInt in
                free(untracked)
                tracked.freeBlock()
                let own = malloc(100)
                free(malloc(40))
                return address(own)
            }
            m.value.freeBlock()
            return m.allocations
        }
        #expect(a.releasedRequestedBytes == 2_000)
        #expect(a.retainedRequestedBytes == 100)
        #expect(a.peakRequestedBytes == 140)
    }

    /// Outer: 500; inner opens: 300 (outer 800, its peak); the inner frees the outer's 500
    /// (outer 300, inner still 300); 400 (both 700, the inner's peak); the inner frees its
    /// 300 and closes (both 400); the outer allocates 100 (500) and frees the rest.
    @Test("nested regions: each its own peak, the outer's reached inside the inner one")
    func nested() throws {
        let (outer, inner) = try twiceAlone { () -> (Allocations, Allocations) in
            let outer = try AllocationScope.measure { () -> Allocations in
                let a = address(malloc(500))
                let inner = try AllocationScope.measure { () -> UInt in
                    let b = malloc(300)
                    a.freeBlock()
                    let c = malloc(400)
                    free(b)
                    return address(c)
                }
                let d = malloc(100)
                inner.value.freeBlock()
                free(d)
                return inner.allocations
            }
            return (outer.allocations, outer.value)
        }
        #expect(inner.peakRequestedBytes == 700)
        #expect(inner.releasedRequestedBytes == 500)
        #expect(inner.retainedRequestedBytes == 400)
        #expect(outer.peakRequestedBytes == 800)
        #expect(outer.retainedRequestedBytes == 0)
    }

    /// The documented bound: the owner cannot order another thread's free against its own
    /// allocations, so the block counts as live until the region closes (1,000 + 500), and
    /// the retained figure, taken at the close, does see the free.
    @Test("a region's block freed on another thread counts as live for its peak until it closes")
    func freedElsewhere() throws {
        let a = try twiceAlone { () -> Allocations in
            let freer = Freer()
            let m = try AllocationScope.measure { () -> UInt in
                let first = address(malloc(1_000))
                freer.free(first)
                return address(malloc(500))
            }
            freer.finish()
            m.value.freeBlock()
            return m.allocations
        }
        #expect(a.retainedRequestedBytes == 500)
        #expect(a.peakRequestedBytes == 1_500)
    }

    /// The same sequence as the region's in a window, with the first block freed on another
    /// thread and a block from before the window freed in it: the window's live bytes are
    /// one process-wide counter, so its peak is exact for every thread's frees. In a process
    /// of its own (an exit test), where nothing else allocates meanwhile.
    @Test("a window's peak counts every thread's frees exactly")
    func window() async {
        await #expect(processExitsWith: .success) {
            let before = address(malloc(1_000_000))
            let freer = Freer()
            let window = try AllocationWindow.measure { () -> (UInt, UInt) in
                before.freeBlock()
                let first = address(malloc(100_000)), second = address(malloc(200_000))
                freer.free(first)
                return (second, address(malloc(50_000)))
            }
            freer.finish()
            window.value.0.freeBlock()
            window.value.1.freeBlock()
            let a = window.allocations
            guard a.requestedBytes == 350_000, a.peakRequestedBytes == 300_000, a.retainedRequestedBytes == 250_000 else {
                print("window: requested \(a.requestedBytes), peak \(a.peakRequestedBytes), retained \(a.retainedRequestedBytes)")
                exit(1)
            }
        }
    }
}

private func address(_ p: UnsafeMutableRawPointer?) -> UInt { UInt(bitPattern: p) }

extension UInt {
    fileprivate func freeBlock() { free(UnsafeMutableRawPointer(bitPattern: self)) }
}

/// A thread, started before anything is measured, that frees the one block it is handed
/// while the caller waits. Starting and ending a thread allocate and free on it: init
/// returns once it is parked, and it ends only when told to (`finish`), so neither lands
/// in a window measured in between.
private final class Freer: @unchecked Sendable {
    private let handed = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
    private var block: UInt = 0

    init() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            ready.signal()
            handed.wait()
            block.freeBlock()
            done.signal()
            handed.wait()
        }
        thread.start()
        ready.wait()
    }

    /// Lets the thread end.
    func finish() { handed.signal() }

    /// Frees `block` on the freer's thread and returns when it is freed. Once.
    func free(_ block: UInt) {
        self.block = block
        handed.signal()
        done.wait()
    }
}

/// Runs `body` twice on a thread of its own and returns the second result: the first use
/// of a generic type allocates its metadata once per process, inside whichever region
/// first asks for it.
private func twiceAlone<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    _ = try onOwnThread(body)
    return try onOwnThread(body)
}
