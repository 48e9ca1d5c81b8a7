import CAllocationHooks
import CBenchLoops
import Profiler

/// `profctl-bench --hook-loop MODE PAIRS SIZE`: runs PAIRS malloc(SIZE)/free pairs in one
/// way of calling the allocator and exits, for counting instructions under
/// `valgrind --tool=callgrind` (scripts/hook-instructions runs it at two sizes and takes
/// the difference, so start-up costs cancel out).
enum HookLoop {
    /// The ways of calling malloc, from bare glibc to the hooks inside a region.
    static let modes = ["bare", "forward", "count", "full", "count-region", "full-region", "full-window", "nested-repro"]

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
        case "full-window":
            _ = try AllocationWindow.measure { bench_malloc_free_pairs(1, pairs, size) }
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
