import CAllocationHooks
import Synchronization


/// What a measured stretch of a task's work did to the heap: its own allocations, on any
/// thread its structured child tasks ran on, and which of those blocks were freed.
public struct AllocationFigures: Sendable, Equatable, CustomStringConvertible {
    /// Allocations made (malloc, calloc, realloc's new block, aligned allocations).
    public var allocations: UInt64
    /// Requested bytes of those allocations, all of them (what pytest-memray calls allocated).
    public var bytes: UInt64
    /// Usable bytes the allocator handed back for them (at least `bytes`).
    public var usableBytes: UInt64
    /// Of its own blocks, how many were freed (on any thread), and their requested bytes.
    public var frees: UInt64
    public var freedBytes: UInt64
    /// Of its own blocks, the requested bytes still live when it ended: what it kept.
    public var retainedBytes: UInt64
    public var retainedBlocks: UInt64
    /// The highest number of its own requested bytes live at once while it ran.
    public var peakBytes: UInt64
    /// Swift retains and releases its task tree made, when measured with a retain limit
    /// (`.retainLimit(count:)`); 0 otherwise.
    public var retains: UInt64
    public var releases: UInt64
    /// Swift objects it allocated (swift_allocObject), and per type, most bytes first, when
    /// measured by a limit (any limit, where the runtime lets the hooks see objects:
    /// a failure names them); 0 and empty from `TaskMeter.measure`. The rows are a window's
    /// (`AllocationWindow.measureTypes`), without its remainder row: a failure message adds
    /// the blocks no object claims from the figures above.
    public var objects: UInt64
    public var objectTypes: [ObjectTypeCounts]
    /// The objects per class metadata, what `.objectLimit(T.self, ...)` is compared by (a
    /// row of `objectTypes` may stand for two private types of one name).
    var objectsByClass: [UInt: UInt64] = [:]
    /// Blocks its work made that the Swift and dispatch runtimes keep for the process (type
    /// metadata, protocol conformance caches, lazily initialized globals, dispatch's
    /// continuations), and their requested bytes: left out of every figure above, because
    /// which test makes them depends on the order tests run in (docs/testing.md, "Exactness").
    public var runtimeCacheBlocks: UInt64
    public var runtimeCacheBytes: UInt64

    public init(allocations: UInt64 = 0, bytes: UInt64 = 0, usableBytes: UInt64 = 0, frees: UInt64 = 0,
                freedBytes: UInt64 = 0, retainedBytes: UInt64 = 0, retainedBlocks: UInt64 = 0, peakBytes: UInt64 = 0,
                retains: UInt64 = 0, releases: UInt64 = 0, objects: UInt64 = 0, objectTypes: [ObjectTypeCounts] = [],
                runtimeCacheBlocks: UInt64 = 0, runtimeCacheBytes: UInt64 = 0) {
        self.allocations = allocations
        self.bytes = bytes
        self.usableBytes = usableBytes
        self.frees = frees
        self.freedBytes = freedBytes
        self.retainedBytes = retainedBytes
        self.retainedBlocks = retainedBlocks
        self.peakBytes = peakBytes
        self.retains = retains
        self.releases = releases
        self.objects = objects
        self.objectTypes = objectTypes
        self.runtimeCacheBlocks = runtimeCacheBlocks
        self.runtimeCacheBytes = runtimeCacheBytes
    }

    init(_ r: profctl_meter_result) {
        self.init(allocations: r.allocations, bytes: r.requested_bytes, usableBytes: r.usable_bytes, frees: r.frees,
                  freedBytes: r.freed_requested_bytes, retainedBytes: r.live_requested_bytes,
                  retainedBlocks: r.live_blocks, peakBytes: r.peak_requested_bytes, retains: r.retains,
                  releases: r.releases, objects: r.objects, runtimeCacheBlocks: r.runtime_cache_blocks,
                  runtimeCacheBytes: r.runtime_cache_bytes)
    }

    public var description: String {
        "\(allocations) allocations, \(bytes) bytes allocated, peak \(peakBytes) bytes live, "
            + "\(retainedBytes) bytes retained in \(retainedBlocks) blocks"
            + (objects > 0 ? ", \(objects) Swift objects" : "")
            + (retains + releases > 0 ? ", \(retains) retains, \(releases) releases" : "")
    }
}

/// Why a stretch of work could not be measured.
public enum TaskMeterError: Error, Equatable, CustomStringConvertible {
    /// The process's malloc is not profctl's: the test binary does not link ProfilerTesting's hooks.
    case hooksInactive
    /// swift_task_localValueGet is not in the process (no Swift concurrency runtime).
    case noConcurrencyRuntime
    /// PROFCTL_MAX_METERS meters are open at once.
    case tooManyMeters
    /// The child task that ran the body returned nothing (cannot happen: a task group with
    /// one child yields its result).
    case noChildResult
    /// Object or retain limits need the Swift runtime's hooks, which refused to install
    /// (an unknown runtime, another tool's hooks): the reason.
    case runtimeHooksRefused(String)

    public var description: String {
        switch self {
        case .hooksInactive:
            "cannot measure allocations: profctl's malloc hooks are not active in this process; "
                + "add the ProfilerTesting product to the test target's dependencies (docs/testing.md)"
        case .noConcurrencyRuntime:
            "cannot measure allocations: the Swift concurrency runtime (swift_task_localValueGet) is not "
                + "loaded in this process; build the tests with a Swift 6 toolchain"
        case .tooManyMeters:
            "cannot measure allocations: \(PROFCTL_MAX_METERS) measurements are already open at once; "
                + "run fewer measured tests in parallel (.serialized)"
        case .noChildResult:
            "the measured child task returned no result; please report this as a profctl bug"
        case .runtimeHooksRefused(let why):
            "cannot count Swift objects or retains: \(why); drop .objectLimit and .retainLimit on this "
                + "toolchain, or limit bytes and allocations instead (docs/testing.md)"
        }
    }
}

/// Measures a task's work, and its structured child tasks' (`async let`, task groups), on
/// whatever threads they run: a **task meter**. Swift Testing runs tests in parallel and an
/// async test resumes on any thread after a suspension, so a thread's figures would mix
/// tests; a meter is bound in a task-local value, which the hooks read at every allocation
/// while a meter is open (docs/testing.md, "Exactness").
///
///     let (value, figures) = try TaskMeter.measure { [1, 2, 3].map { $0 * 2 } }
///
/// Not counted: work on detached tasks, on dispatch queues and on threads the body starts
/// (they inherit no task-local values). An unstructured `Task {}` inherits them: its
/// allocations count while the meter is open.
public enum TaskMeter {
    @TaskLocal static var current: UInt64 = 0

    /// The key the hooks read: the address of the TaskLocal object. Set once.
    private static let keySet: Bool = {
        let key = UnsafeRawPointer(Unmanaged.passUnretained($current).toOpaque())
        return profctl_meters_set_key(key) == 0
    }()

    private static func open(_ capture: MeterCapture = []) throws(TaskMeterError) -> UInt64 {
        guard keySet else { throw .noConcurrencyRuntime }
        guard profctl_hooks_active() != 0 else { throw .hooksInactive }
        // Bits, not an option-set literal: a literal builds an array, which the enclosing
        // meter (a measure inside a measure) would count.
        if capture.rawValue & (PROFCTL_METER_TYPES | PROFCTL_METER_ARC) != 0 {
            guard profctl_arc_install() == 0 else { throw .runtimeHooksRefused(String(cString: profctl_arc_refusal())) }
        }
        if capture.contains(.types) {
            guard profctl_types_install() == 0 else { throw .runtimeHooksRefused(String(cString: profctl_types_refusal())) }
        }
        let id = profctl_meter_open_capturing(current, capture.rawValue)
        guard id != 0 else { throw .tooManyMeters }
        return id
    }

    private static func close(_ id: UInt64) -> AllocationFigures { close(id, capturing: []).figures }

    /// The figures, and what the meter captured read just before it closes (after the body
    /// ended, outside the meter: the reading allocates). Types are named here.
    private static func close(_ id: UInt64, capturing capture: MeterCapture) -> (figures: AllocationFigures, sites: [MeterSite]) {
        var sites: [MeterSite] = [], types = MeterTypes()
        if capture.contains(.sites) { sites = withoutMetering { MeterSite.read(id) } }
        if capture.contains(.types) { types = withoutMetering { MeterTypes.read(id) } }
        var result = profctl_meter_result()
        profctl_meter_close(id, &result)
        var figures = AllocationFigures(result)
        figures.objectTypes = types.rows
        figures.objectsByClass = types.objectsByClass
        return (figures, sites)
    }

    /// The figures of the meter the calling task runs in so far (nil outside one).
    public static var sofar: AllocationFigures? {
        var result = profctl_meter_result()
        return profctl_meter_read(current, &result) == 0 ? AllocationFigures(result) : nil
    }

    /// Runs `body` in a meter and returns its value with what it did to the heap. Blocks it
    /// allocated and freed before this returns (on any thread) count as freed.
    public static func measure<T>(_ body: () throws -> T) throws -> (T, AllocationFigures) {
        let id = try open()
        let (value, figures, _) = try run(id, body)
        return (value, figures)
    }

    /// The async form: the body may suspend, hop threads and start child tasks. It runs in
    /// a fresh child task, so that its figures do not depend on the calling task's history:
    /// a task's allocator grows by slabs it keeps until the task ends, and a slab grown by
    /// the body would otherwise be counted as retained (docs/testing.md, "Exactness").
    public static func measure<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> (T, AllocationFigures) {
        let id = try open()
        let (value, figures, _) = try await run(id, body)
        return (value, figures)
    }

    /// `body` measured, or run unmeasured after `unmeasurable` is told why (the limits'
    /// way: they record an issue, and the body's own errors pass through untouched).
    /// With `capture`, the meter also names what it captured: the sites come back with the
    /// figures (symbolized only if a limit fails), the types in them.
    static func measureOrReport<T>(
        capturing capture: MeterCapture = [], _ body: () throws -> T, unmeasurable: (TaskMeterError) -> Void
    ) throws -> (T, AllocationFigures?, [MeterSite]) {
        let id: UInt64
        do { id = try open(capture) } catch {
            unmeasurable(error)
            return (try body(), nil, [])
        }
        let (value, figures, sites) = try run(id, capturing: capture, body)
        return (value, figures, sites)
    }

    package static func measureOrReport<T: Sendable>(
        capturing capture: MeterCapture = [], _ body: @escaping @Sendable () async throws -> T,
        unmeasurable: (TaskMeterError) -> Void
    ) async throws -> (T, AllocationFigures?, [MeterSite]) {
        let id: UInt64
        do { id = try open(capture) } catch {
            unmeasurable(error)
            return (try await body(), nil, [])
        }
        let (value, figures, sites) = try await run(id, capturing: capture, body)
        return (value, figures, sites)
    }

    private static func run<T>(
        _ id: UInt64, capturing capture: MeterCapture = [], _ body: () throws -> T
    ) throws -> (T, AllocationFigures, [MeterSite]) {
        let value: T
        do {
            value = try $current.withValue(id) { try body() }
        } catch {
            _ = close(id)
            throw error
        }
        let (figures, sites) = close(id, capturing: capture)
        return (value, figures, sites)
    }

    /// The child task is created outside the meter (its task object is the caller's) and
    /// binds the meter itself. Its own blocks (its allocator's slabs) are freed with the task
    /// object, on the child's thread after it handed over its result, which under load came
    /// after the parent closed the meter: they then counted as kept. So the meter watches the
    /// task object's free and the meter closes only after it (bounded: a task still alive then
    /// leaves its blocks counted, which fails a limit on what is kept, never passes one).
    private static func run<T: Sendable>(
        _ id: UInt64, capturing capture: MeterCapture = [], _ body: @escaping @Sendable () async throws -> T
    ) async throws -> (T, AllocationFigures, [MeterSite]) {
        let value: T
        do {
            value = try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask {
                    _ = profctl_meter_watch_task(id)
                    return try await $current.withValue(id) { try await body() }
                }
                guard let value = try await group.next() else { throw TaskMeterError.noChildResult }
                return value
            }
        } catch {
            _ = profctl_meter_await_task(id, bodyTaskReleaseTimeout)
            _ = close(id)
            throw error
        }
        _ = profctl_meter_await_task(id, bodyTaskReleaseTimeout)
        let (figures, sites) = close(id, capturing: capture)
        return (value, figures, sites)
    }

    /// How long a closing meter waits for its body task's release: far beyond the
    /// microseconds it takes, for a loaded machine.
    private static let bodyTaskReleaseTimeout: UInt64 = 2_000_000_000
}
