import CAllocationHooks

/// Why a region (``AllocationScope``) or window (``AllocationWindow``) could not be measured.
public enum AllocationScopeError: Error, CustomStringConvertible, Sendable {
    case hooksInactive
    case noThreadSlot
    case tooDeeplyNested
    case windowAlreadyOpen

    public var description: String {
        switch self {
        case .hooksInactive:
            "the allocation hooks are not this process's allocator (running under valgrind, or Profiler not linked into the executable); nothing can be measured"
        case .noThreadSlot:
            "this thread has no table of tracked blocks of its own (more than 4,095 threads at once, or the thread is exiting); measure on fewer threads, or use AllocationWindow"
        case .tooDeeplyNested:
            "more than \(PROFCTL_MAX_REGION_DEPTH) regions are open on this thread; close some before opening another (AllocationScope.measure nests at most that deep)"
        case .windowAlreadyOpen:
            "another AllocationWindow is open (it counts the whole process, so only one can be at a time); wait for it to close, or measure this work inside it"
        }
    }
}
