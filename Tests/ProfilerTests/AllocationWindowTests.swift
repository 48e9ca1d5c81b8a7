import Foundation
import Testing
import ProfctlTestSupport
import Profiler
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

/// The process-wide window in this process. Other tests allocate meanwhile, so figures are
/// checked as lower bounds here; Tests/ProfilerTests/WindowWitnessTests.swift checks them
/// exactly, against heaptrack, in a quiet process.
@Suite("Process-wide windows", .serialized)
struct AllocationWindowTests {
    @Test("a window counts another thread's allocations, which a region on this thread does not see")
    func otherThreads() throws {
        let kept = AddressBox()
        func allocateElsewhere() {
            let done = DispatchSemaphore(value: 0)
            let worker = Thread {
                kept.value = UInt(bitPattern: malloc(123_457))
                done.signal()
            }
            worker.start()
            done.wait()
        }
        let region = try AllocationScope.measure { allocateElsewhere() }
        free(UnsafeMutableRawPointer(bitPattern: kept.value))
        let window = try AllocationWindow.measure { allocateElsewhere() }
        #expect(region.allocations.requestedBytes < 123_457)
        #expect(window.allocations.requestedBytes >= 123_457)
        #expect(window.allocations.retainedRequestedBytes >= 123_457)
        free(UnsafeMutableRawPointer(bitPattern: kept.value))
    }

    @Test("async work on the cooperative pool counts in an async window")
    func asyncWork() async throws {
        let window = try await AllocationWindow.measure { () async -> Int in
            await withTaskGroup(of: Int.self) { group in
                for i in 0..<8 { group.addTask { keep([UInt8](repeating: UInt8(i), count: 50_000)).count } }
                return await group.reduce(0, +)
            }
        }
        #expect(window.value == 400_000)
        #expect(window.allocations.requestedBytes >= 8 * 50_032)
    }

    @Test("only one window at a time; regions keep their own figures inside one")
    func oneAtATime() throws {
        let outer = try AllocationWindow.measure { () -> (Bool, Allocations) in
            var refused = false
            do { _ = try AllocationWindow.measure { 1 } } catch AllocationScopeError.windowAlreadyOpen { refused = true }
            let region = try onOwnThread { try AllocationScope.measure { keep([UInt8](repeating: 1, count: 1000)) }.allocations }
            return (refused, region)
        }
        #expect(outer.value.0)
        #expect(outer.value.1.requestedBytes == 1032 && outer.value.1.netLiveBytes == 1032)
        #expect(!AllocationWindow.isOpen)
        #expect(outer.allocations.requestedBytes >= 1032)
    }
}

private final class AddressBox: @unchecked Sendable {
    var value: UInt = 0
}
