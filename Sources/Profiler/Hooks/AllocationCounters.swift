import CAllocationHooks

/// What one measured region (one thread, ``AllocationScope``) or window (the whole
/// process, ``AllocationWindow``) did to the heap, from the allocation hooks.
///
/// Nested regions work like nested timers: an inner region's figures are its own, and
/// the outer region's include them. A block the outer region allocated and an inner one
/// freed is *released* by the inner region and simply not *retained* by the outer one.
public struct Allocations: Sendable, Equatable, Codable {
    /// Allocations made in the region.
    public var allocations: Int
    /// Frees performed during the region, of any block.
    public var frees: Int
    /// Bytes the region's allocations asked for, and what malloc handed back.
    public var requestedBytes: Int
    public var usableBytes: Int
    /// Of the region's own allocations, the bytes still live when it closed.
    public var retainedRequestedBytes: Int
    public var retainedUsableBytes: Int
    /// Bytes of blocks allocated in a measured region or window before this one opened
    /// (not its own) and freed during it.
    public var releasedRequestedBytes: Int
    public var releasedUsableBytes: Int
    /// Usable bytes of never-measured blocks freed during the region. Their requested
    /// size is unknown, so they count only towards the usable figure.
    public var untrackedFreedUsableBytes: Int
    /// Swift retains and releases made in the region (`_n` variants counted as n), when
    /// ARC counting is on (``ARCCounting``); 0 otherwise.
    public var retains: Int = 0
    public var releases: Int = 0
    /// The region's high-water mark: its own allocations less its own frees at the highest
    /// point, in requested bytes (what pytest-memray's `limit_memory` limits). Freeing
    /// blocks from before the region never lowers it; a region's blocks freed on another
    /// thread while it is open count as live until it closes, so then it is an upper bound.
    /// A window's counts every thread's frees, exactly (docs/hooks.md, "Peak").
    public var peakRequestedBytes: Int = 0

    package static let zero = Allocations(
        allocations: 0, frees: 0, requestedBytes: 0, usableBytes: 0,
        retainedRequestedBytes: 0, retainedUsableBytes: 0,
        releasedRequestedBytes: 0, releasedUsableBytes: 0, untrackedFreedUsableBytes: 0)

    /// The change in live heap bytes the region caused, in requested bytes: what it
    /// allocated and kept, less what it freed of earlier measured work.
    public var netLiveBytes: Int { retainedRequestedBytes &- releasedRequestedBytes }

    /// The same in usable bytes; here every free is known, measured or not.
    public var netLiveUsableBytes: Int {
        retainedUsableBytes &- releasedUsableBytes &- untrackedFreedUsableBytes
    }

    /// From the C result. Clamped conversions: no figure can trap, whatever the hooks report.
    init(_ r: profctl_region_result) {
        allocations = Int(clamping: r.allocations)
        frees = Int(clamping: r.frees)
        requestedBytes = Int(clamping: r.requested_bytes)
        usableBytes = Int(clamping: r.usable_bytes)
        retainedRequestedBytes = Int(clamping: r.retained_requested_bytes)
        retainedUsableBytes = Int(clamping: r.retained_usable_bytes)
        releasedRequestedBytes = Int(clamping: r.released_requested_bytes)
        releasedUsableBytes = Int(clamping: r.released_usable_bytes)
        untrackedFreedUsableBytes = Int(clamping: r.untracked_freed_usable_bytes)
        retains = Int(clamping: r.retains)
        releases = Int(clamping: r.releases)
        peakRequestedBytes = Int(clamping: r.peak_requested_bytes)
    }

    package init(allocations: Int, frees: Int, requestedBytes: Int, usableBytes: Int,
                retainedRequestedBytes: Int, retainedUsableBytes: Int,
                releasedRequestedBytes: Int, releasedUsableBytes: Int, untrackedFreedUsableBytes: Int) {
        self.allocations = allocations
        self.frees = frees
        self.requestedBytes = requestedBytes
        self.usableBytes = usableBytes
        self.retainedRequestedBytes = retainedRequestedBytes
        self.retainedUsableBytes = retainedUsableBytes
        self.releasedRequestedBytes = releasedRequestedBytes
        self.releasedUsableBytes = releasedUsableBytes
        self.untrackedFreedUsableBytes = untrackedFreedUsableBytes
    }
}

/// Process-wide counters of the hooks: every thread, live or exited.
package struct AllocationTotals: Sendable, Equatable {
    package let allocations: Int
    package let frees: Int
    package let requestedBytes: Int
    package let usableBytes: Int
    package let freedUsableBytes: Int
    /// Blocks allocated inside a measured region and not yet freed.
    package let trackedLiveBlocks: Int
    package let threadsSeen: Int
    package let threadsExited: Int
}

/// The Swift face of the C allocation hooks.
package enum AllocationHooks {
    /// Sums every thread's counters: a pass over the thread registry, for tests and
    /// reports, not for per-instance paths.
    package static var totals: AllocationTotals {
        var t = profctl_totals()
        profctl_hooks_totals(&t)
        return AllocationTotals(
            allocations: Int(clamping: t.allocations), frees: Int(clamping: t.frees),
            requestedBytes: Int(clamping: t.requested_bytes), usableBytes: Int(clamping: t.usable_bytes),
            freedUsableBytes: Int(clamping: t.freed_usable_bytes), trackedLiveBlocks: Int(clamping: t.tracked_live_blocks),
            threadsSeen: Int(clamping: t.threads_seen), threadsExited: Int(clamping: t.threads_exited))
    }

    /// True when the hooks really are this process's allocator. False under valgrind
    /// (it owns malloc) or when Profiler is not linked into the executable. O(1) once
    /// true (one load): cheap enough to ask on every measurement.
    package static var isActive: Bool { profctl_hooks_active() != 0 }

    /// The innermost measured region of the calling thread, 0 when none.
    package static var currentScope: UInt64 { profctl_current_scope() }
}
