import CAllocationHooks
#if canImport(Glibc)
import Glibc
#endif

/// A value built inside a measured region, with what building it allocated and how long it took.
public struct Measured<Value> {
    public let value: Value
    /// What the region or window did to the heap.
    public let allocations: Allocations
    public let durationNanoseconds: UInt64
    /// When the region opened, on the monotonic clock (AllocationScope.monotonicNanoseconds).
    public let startNanoseconds: UInt64
    /// The region's id (see ``AllocationHooks/currentScope``), or the window's epoch.
    package let scopeID: UInt64
}

extension Measured: Sendable where Value: Sendable {}

/// Measures the heap effect of a stretch of work on the calling thread: a
/// **thread-scoped region**.
///
///     let label = try AllocationScope.measure { Label(text: "Hello") }
///     print(label.allocations.netLiveBytes)
///
/// Only this thread's allocations count, so several threads can measure at once, each
/// its own work. Work that fans out to other threads (`DispatchQueue.concurrentPerform`,
/// queues, async tasks) is not seen: measure that with ``AllocationWindow``, which counts
/// every thread.
///
/// Regions nest like timers: an inner region's figures are its own, and the outer
/// region's include them (a block the outer region allocated and the inner one freed is
/// released by the inner region, and not retained by the outer one).
public enum AllocationScope {
    /// Runs `body` in a thread-scoped region and returns its value with what it did to
    /// the heap. Throws ``AllocationScopeError`` when nothing can be measured.
    public static func measure<T>(_ body: () throws -> T) throws -> Measured<T> {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        // record --sites walks this thread's stack: its bounds are read once, never in a region.
        if profctl_sites_enabled() != 0 { excluded { profctl_sites_prepare_thread() } }
        var region = profctl_region()
        switch profctl_region_begin(&region) {
        case 0: break
        case -2: throw AllocationScopeError.tooDeeplyNested
        default: throw AllocationScopeError.noThreadSlot
        }
        let start = monotonicNanoseconds()
        let value: T
        do {
            value = try body()
        } catch {
            if profctl_sites_enabled() != 0 { profctl_sites_region_ending() }
            var discarded = profctl_region_result()
            profctl_region_end(&region, &discarded)
            throw error
        }
        let end = monotonicNanoseconds()
        if profctl_sites_enabled() != 0 { profctl_sites_region_ending() }
        var result = profctl_region_result()
        profctl_region_end(&region, &result)
        return Measured(value: value, allocations: Allocations(result),
                        durationNanoseconds: end &- start, startNanoseconds: start, scopeID: region.scope_id)
    }

    /// Runs `body` with its allocations kept out of every open region of this thread, and
    /// out of an open window:
    /// for bookkeeping (recording events) that must not be charged to what is measured.
    public static func excluded<T>(_ body: () throws -> T) rethrows -> T {
        profctl_exclusion_begin()
        defer { profctl_exclusion_end() }
        return try body()
    }

    /// CLOCK_MONOTONIC in nanoseconds; reading it allocates nothing.
    package static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
