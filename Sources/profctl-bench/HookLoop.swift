import CAllocationHooks
import CBenchLoops
import Profiler

/// `profctl-bench --hook-loop MODE PAIRS SIZE`: runs PAIRS malloc(SIZE)/free pairs in one
/// way of calling the allocator and exits, for counting instructions under
/// `valgrind --tool=callgrind` (scripts/hook-instructions runs it at two sizes and takes
/// the difference, so start-up costs cancel out).
enum HookLoop {
    /// The ways of calling malloc, from bare glibc to the hooks inside a region.
    static let modes = ["bare", "forward", "count", "full", "count-region", "full-region", "full-window", "nested-repro",
                        "arc-unhooked", "arc-off", "arc-on", "arc-region", "arc-window",
                        "arc-witness-unhooked", "arc-witness", "types-flag", "types-flag-region", "types-outside", "types-region",
                        "types-window-off", "types-window", "meter", "meter-sites", "meter-arc",
                        "objects", "meter-objects", "meter-deep", "usable", "meter-usable", "meter-open"]

    static func run(mode: String, pairs: UInt64, size: Int) throws {
        switch mode {
        case "bare":
            _ = bench_malloc_free_pairs(0, pairs, size)
        case "forward":
            profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FORWARD))
            _ = bench_malloc_free_pairs(1, pairs, size)
        case "count", "full":
            profctl_hooks_set_mode(Int32(mode == "count" ? PROFCTL_HOOKS_COUNT : PROFCTL_HOOKS_FULL))
            _ = bench_malloc_free_pairs(1, pairs, size)
        case "count-region", "full-region":
            profctl_hooks_set_mode(Int32(mode == "count-region" ? PROFCTL_HOOKS_COUNT : PROFCTL_HOOKS_FULL))
            _ = try AllocationScope.measure { bench_malloc_free_pairs(1, pairs, size) }
        case "nested-repro":
            // Issue 15's repro: an inner region frees the outer region's block. It crashed
            // release builds; prints the inner and outer figures instead.
            let outer = try AllocationScope.measure { () -> Measured<Void> in
                var a: [Int]? = [Int](repeating: 7, count: 1000)
                return try AllocationScope.measure { a = nil; _ = a }  // read after the write that frees it: no warning
            }
            print("inner: \(outer.value.allocations)")
            print("outer: \(outer.allocations)")
        case "arc-unhooked", "arc-off", "arc-on", "arc-region", "arc-window":
            // PAIRS swift_retain/swift_release pairs (SIZE is ignored): never installed, installed
            // with counting off, counting outside a region, in a region, in a window.
            let object = ARCLoopObject()
            let opaque = Unmanaged.passUnretained(object).toOpaque()
            if mode != "arc-unhooked" { try ARCCounting.enable() }
            if mode == "arc-off" { ARCCounting.disable() }
            switch mode {
            case "arc-region": _ = try AllocationScope.measure { bench_retain_release_pairs(opaque, pairs) }
            case "arc-window": _ = try AllocationWindow.measure { bench_retain_release_pairs(opaque, pairs) }
            default: _ = bench_retain_release_pairs(opaque, pairs)
            }
            ARCCounting.disable()
            withExtendedLifetime(object) {}
        case "arc-witness-unhooked", "arc-witness":
            // The witness's work PAIRS times: unhooked, for callgrind's entry counts of the
            // runtime's functions, or counted in a region, printing what the region counted.
            if mode == "arc-witness" {
                try ARCCounting.enable()
                let m = try AllocationScope.measure { arcWitnessWork(Int(pairs)) }
                ARCCounting.disable()
                print("retains \(m.allocations.retains) releases \(m.allocations.releases) allocations \(m.allocations.allocations)")
            } else {
                arcWitnessWork(Int(pairs))
            }
        case "types-flag", "types-flag-region", "types-outside", "types-region":
            // PAIRS objects allocated and released (swift_allocObject, swift_release, free;
            // SIZE is ignored), the runtime's flag set: ARC counting alone (outside a region
            // and in one), types captured outside a region and in one (docs/hooks.md, "Types").
            try ARCCounting.enable()
            if !mode.hasPrefix("types-flag") {
                guard profctl_types_install() == 0 else { throw BenchError.usage(String(cString: profctl_types_refusal())) }
                // As TypeCapture does: the sites' address table carries each object's type
                // to its free in a later region (docs/leaks.md, "Which types stay").
                profctl_sites_track_objects(1)
                profctl_types_enable(1)
            }
            if mode.hasSuffix("-region") {
                _ = try AllocationScope.measure { allocateObjects(pairs) }
            } else {
                allocateObjects(pairs)
            }
            profctl_types_enable(0)
            profctl_types_uninstall()
            profctl_types_reset_thread()
            profctl_sites_track_objects(0)
            profctl_sites_reset_thread()
            ARCCounting.disable()
        case "types-window-off", "types-window":
            // PAIRS objects in a window, the runtime's flag set as a window capturing types sets
            // it: without types (AllocationWindow.measure) and with (measureTypes).
            try ARCCounting.enable()
            if mode == "types-window" {
                _ = try AllocationWindow.measureTypes { allocateObjects(pairs) }
            } else {
                _ = try AllocationWindow.measure { allocateObjects(pairs) }
            }
            ARCCounting.disable()
        case "full-window":
            _ = try AllocationWindow.measure { bench_malloc_free_pairs(1, pairs, size) }
        case "objects", "meter-objects":
            // PAIRS Swift objects allocated and released (swift_allocObject -> swift_slowAlloc ->
            // malloc, then free; SIZE ignored), the runtime's flag not set: outside any meter,
            // and in one (capturing nothing, so that only the allocation path differs).
            profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL))
            if mode == "objects" {
                allocateEscapingObjects(pairs)
            } else {
                try BenchMeter.run(capture: 0) { allocateEscapingObjects(pairs) }
            }
        case "meter-deep":
            // The meter's malloc/free pairs 40 frames further down the stack: what a deep test's
            // allocations cost the walk for the runtimes' caches (runtime_caches.c), frame by frame.
            try BenchMeter.run(capture: 0) { _ = bench_malloc_free_pairs_at_depth(40, pairs, size) }
        case "usable", "meter-usable":
            // Pairs asking malloc_usable_size of each block, as Array and String growth does:
            // outside any meter, and in one (which answers it from the meters' table).
            profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL))
            if mode == "usable" {
                _ = bench_malloc_usable_free_pairs(pairs, size)
            } else {
                try BenchMeter.run(capture: 0) { _ = bench_malloc_usable_free_pairs(pairs, size) }
            }
        case "meter-open":
            // PAIRS meters opened and closed in turn (SIZE ignored). The first open resolves the
            // runtimes' cache functions (runtime_caches_resolve): its wall time is printed beside
            // the median of the others, in nanoseconds.
            var times: [UInt64] = []
            times.reserveCapacity(Int(pairs))
            for _ in 0..<pairs { times.append(try BenchMeter.timedOpen()) }
            guard let first = times.first else { break }
            let rest = times.dropFirst().sorted()
            print("first open: \(first) ns (\(profctl_meter_runtime_cache_functions()) runtime cache functions resolved); "
                  + "median of the other \(rest.count): \(rest.isEmpty ? 0 : rest[rest.count / 2]) ns")
        case "meter", "meter-sites", "meter-arc":
            // In a task meter (ProfilerTesting's traits, docs/testing.md "Cost"): malloc/free
            // pairs counted, with each allocation's stack captured too, or retain/release
            // pairs with ARC counted per task (SIZE ignored).
            try BenchMeter.run(capture: mode == "meter-sites" ? PROFCTL_METER_SITES : mode == "meter-arc" ? PROFCTL_METER_ARC : 0) {
                if mode == "meter-arc" {
                    let object = ARCLoopObject()
                    _ = bench_retain_release_pairs(Unmanaged.passUnretained(object).toOpaque(), pairs)
                    withExtendedLifetime(object) {}
                } else {
                    _ = bench_malloc_free_pairs(1, pairs, size)
                }
            }
        default:
            throw BenchError.usage("unknown hook-loop mode '\(mode)'; valid modes: \(modes.joined(separator: ", "))")
        }
        profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL))
    }
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self { case .usage(let text): text }
    }
}

/// The object types-* modes allocate.
final class TypesLoopObject {
    var value = 0
}

/// Allocates and releases `count` objects; the object escapes into a call the optimizer
/// cannot see through, so the allocation stays.
@inline(never)
func allocateObjects(_ count: UInt64) {
    for _ in 0..<count { consumeObject(TypesLoopObject()) }
}

@inline(never)
func consumeObject(_ object: TypesLoopObject) { object.value &+= 1 }

/// Where allocateEscapingObjects puts each object: a global, so that no build can keep it on
/// the stack (release promotes allocateObjects' objects to the stack: no malloc at all).
nonisolated(unsafe) var escapedObject: TypesLoopObject?

/// Allocates `count` objects, each freed when the next replaces it: one malloc and one free each.
@inline(never)
func allocateEscapingObjects(_ count: UInt64) {
    for _ in 0..<count { escapedObject = TypesLoopObject() }
    escapedObject = nil
}

/// A task meter opened through the hooks' C API, as ProfilerTesting's TaskMeter opens one
/// (the bench does not link ProfilerTesting): bound in a task-local value of its own.
enum BenchMeter {
    @TaskLocal static var id: UInt64 = 0

    static func run(capture: UInt32, _ body: () -> Void) throws {
        guard profctl_meters_set_key(UnsafeRawPointer(Unmanaged.passUnretained($id).toOpaque())) == 0 else {
            throw BenchError.usage("the concurrency runtime is not loaded: no task meters")
        }
        let meter = profctl_meter_open_capturing(0, capture)
        guard meter != 0 else { throw BenchError.usage("could not open a task meter (hooks inactive, or ARC hooks refused)") }
        $id.withValue(meter) { body() }
        var result = profctl_meter_result()
        profctl_meter_close(meter, &result)
    }

    /// Opens a meter and closes it at once: the open's wall time, in nanoseconds.
    static func timedOpen() throws -> UInt64 {
        guard profctl_meters_set_key(UnsafeRawPointer(Unmanaged.passUnretained($id).toOpaque())) == 0 else {
            throw BenchError.usage("the concurrency runtime is not loaded: no task meters")
        }
        let start = ContinuousClock.now
        let meter = profctl_meter_open_capturing(0, 0)
        let elapsed = ContinuousClock.now - start
        guard meter != 0 else { throw BenchError.usage("could not open a task meter (hooks inactive)") }
        var result = profctl_meter_result()
        profctl_meter_close(meter, &result)
        let (seconds, attoseconds) = elapsed.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
