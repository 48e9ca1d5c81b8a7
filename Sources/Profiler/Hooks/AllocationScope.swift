import CAllocationHooks
#if canImport(Glibc)
import Glibc
#endif

/// Why a region could not be measured.
public enum AllocationScopeError: Error, CustomStringConvertible, Sendable {
    case hooksInactive
    case noThreadSlot

    public var description: String {
        switch self {
        case .hooksInactive:
            "the allocation hooks are not this process's allocator (running under valgrind, or Profiler not linked into the executable); nothing can be measured"
        case .noThreadSlot:
            "this thread has no allocation counters of its own (too many live threads, or the thread is exiting)"
        }
    }
}

/// A value built inside a measured region, with what building it allocated and how long it took.
public struct Measured<Value> {
    public let value: Value
    public let allocations: Allocations
    public let durationNanoseconds: UInt64
    /// When the region opened, on the monotonic clock (AllocationScope.monotonicNanoseconds).
    public let startNanoseconds: UInt64
    public let scopeID: UInt64
}

extension Measured: Sendable where Value: Sendable {}

/// Measures the heap effect of a stretch of work on the calling thread.
///
///     let label = try AllocationScope.measure { Label(text: "Hello") }
///     print(label.allocations.netLiveBytes)
///
/// Only this thread's allocations count, so several threads can measure at once.
/// Regions nest; an inner region's bytes also count in the outer one.
public enum AllocationScope {
    public static func measure<T>(_ body: () throws -> T) throws -> Measured<T> {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        var region = profctl_region()
        guard profctl_region_begin(&region) == 0 else { throw AllocationScopeError.noThreadSlot }
        let start = monotonicNanoseconds()
        let value: T
        do {
            value = try body()
        } catch {
            var discarded = profctl_region_result()
            profctl_region_end(&region, &discarded)
            throw error
        }
        let end = monotonicNanoseconds()
        var result = profctl_region_result()
        profctl_region_end(&region, &result)
        return Measured(value: value, allocations: Allocations(result),
                        durationNanoseconds: end &- start, startNanoseconds: start, scopeID: region.scope_id)
    }

    /// Runs `body` with its allocations kept out of every open region of this thread:
    /// for bookkeeping (recording events) that must not be charged to what is measured.
    public static func excluded<T>(_ body: () throws -> T) rethrows -> T {
        profctl_exclusion_begin()
        defer { profctl_exclusion_end() }
        return try body()
    }

    /// CLOCK_MONOTONIC in nanoseconds; reading it allocates nothing.
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
