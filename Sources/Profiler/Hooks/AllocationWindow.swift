import CAllocationHooks

/// Measures the heap effect of a stretch of work on **every thread of the process**: a
/// process-wide window, as heaptrack and DHAT count.
///
///     let parsed = try AllocationWindow.measure {
///         DispatchQueue.concurrentPerform(iterations: 8) { i in parse(chunk: i) }
///     }
///     let fetched = try await AllocationWindow.measure {
///         try await withThrowingTaskGroup(of: Int.self) { group in ... }
///     }
///
/// Use it for work that fans out: queues, `concurrentPerform`, async code (child tasks,
/// `async let`, and any detached or unstructured task that allocates while the window
/// is open all count). Everything else the process does meanwhile counts too (other
/// threads' work, a recorder's writer thread), so measure in a quiet process, or compare
/// against a baseline. Only one window can be open at a time; thread-scoped regions
/// (``AllocationScope``) keep working inside it, with their own figures.
public enum AllocationWindow {
    /// Runs `body` with the window open and returns its value with what the whole
    /// process did to the heap meanwhile.
    public static func measure<T>(_ body: () throws -> T) throws -> Measured<T> {
        var window = try open()
        let start = AllocationScope.monotonicNanoseconds()
        let value: T
        do {
            value = try body()
        } catch {
            _ = close(&window)
            throw error
        }
        let end = AllocationScope.monotonicNanoseconds()
        return Measured(value: value, allocations: close(&window), durationNanoseconds: end &- start,
                        startNanoseconds: start, scopeID: window.epoch)
    }

    /// The same for async work: the window stays open across every suspension, so the
    /// awaited work counts on whatever threads run it.
    public static func measure<T>(_ body: () async throws -> T) async throws -> Measured<T> {
        var window = try open()
        let start = AllocationScope.monotonicNanoseconds()
        let value: T
        do {
            value = try await body()
        } catch {
            _ = close(&window)
            throw error
        }
        let end = AllocationScope.monotonicNanoseconds()
        return Measured(value: value, allocations: close(&window), durationNanoseconds: end &- start,
                        startNanoseconds: start, scopeID: window.epoch)
    }

    /// True while a window is open.
    package static var isOpen: Bool { profctl_window_is_open() != 0 }

    /// Opens the window (``measureTypes(_:)`` opens it this way too, and adds its types).
    package static func open() throws -> profctl_window {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        var window = profctl_window()
        guard profctl_window_begin(&window) == 0 else { throw AllocationScopeError.windowAlreadyOpen }
        return window
    }

    package static func close(_ window: inout profctl_window) -> Allocations {
        var result = profctl_region_result()
        profctl_window_end(&window, &result)
        return Allocations(result)
    }
}

extension Measured {
    /// A window's figures, measured outside this module (``AllocationWindow/open()``).
    package static func window(_ value: Value, allocations: Allocations, start: UInt64, end: UInt64,
                               epoch: UInt64) -> Measured {
        Measured(value: value, allocations: allocations, durationNanoseconds: end &- start, startNanoseconds: start,
                 scopeID: epoch)
    }
}
