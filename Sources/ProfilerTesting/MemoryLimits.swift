import CAllocationHooks

/// Limits on what a test or block may do to the heap; nil means no limit on that figure.
/// All sizes are requested bytes (what the code asked malloc for), exact and the same on
/// every run, where usable sizes depend on the allocator.
public struct MemoryLimits: Sendable, Equatable {
    /// Requested bytes allocated in all, freed or not.
    public var bytes: UInt64?
    /// Allocations made.
    public var allocations: UInt64?
    /// Own requested bytes live at once, at the highest point.
    public var peakBytes: UInt64?
    /// Own requested bytes still live at the end (0: no leaks).
    public var retainedBytes: UInt64?
    /// Run the body this many times; live bytes after the last round must not exceed live
    /// bytes after the first (a cache filled once passes, a leak per round fails).
    public var growthRounds: Int?
    /// Objects of a class allocated, one limit per class.
    public var objects: [ObjectLimit]
    /// Swift retains made (ARC traffic; not retained bytes).
    public var retains: UInt64?

    public init(bytes: UInt64? = nil, allocations: UInt64? = nil, peakBytes: UInt64? = nil,
                retainedBytes: UInt64? = nil, growthRounds: Int? = nil, objects: [ObjectLimit] = [],
                retains: UInt64? = nil) {
        self.bytes = bytes
        self.allocations = allocations
        self.peakBytes = peakBytes
        self.retainedBytes = retainedBytes
        self.growthRounds = growthRounds
        self.objects = objects
        self.retains = retains
    }

    /// No limit on anything: nothing is measured.
    public var isEmpty: Bool {
        bytes == nil && allocations == nil && peakBytes == nil && retainedBytes == nil && growthRounds == nil
            && objects.isEmpty && retains == nil
    }

    /// What the meter must capture: sites and types always (a failure names them; types
    /// where this runtime lets the hooks see objects, else only an object limit asks and
    /// cannot be measured), ARC for the limit on retains.
    var capture: MeterCapture {
        var capture: MeterCapture = .sites
        if !objects.isEmpty || MeterCapture.typesAvailable { capture.insert(.types) }
        if retains != nil { capture.insert(.arc) }
        return capture
    }

    /// Whether every figure over its limit is about what the test kept (retained bytes, leaks,
    /// growth), not what it allocated: the failure then ranks sites by bytes still live.
    func keptOnly(_ figures: AllocationFigures) -> Bool {
        let over = { (measured: UInt64, limit: UInt64?) in limit.map { measured > $0 } ?? false }
        return !over(figures.bytes, bytes) && !over(figures.allocations, allocations) && !over(figures.peakBytes, peakBytes)
            && !over(figures.retains, retains)
            && !objects.contains { limit in limit.measured(in: figures).map { $0 > limit.count } ?? true }
    }

    /// These limits with `other`'s set figures in place of these: a test's own limit over
    /// its suite's default.
    public func overridden(by other: MemoryLimits) -> MemoryLimits {
        MemoryLimits(bytes: other.bytes ?? bytes, allocations: other.allocations ?? allocations,
                     peakBytes: other.peakBytes ?? peakBytes, retainedBytes: other.retainedBytes ?? retainedBytes,
                     growthRounds: other.growthRounds ?? growthRounds,
                     objects: objects.filter { mine in !other.objects.contains { $0.metadata == mine.metadata } } + other.objects,
                     retains: other.retains ?? retains)
    }

    /// The lines naming each figure over its limit, with the measured figure and the limit
    /// (empty: within every limit). `liveAfterRounds` are the live bytes after each round
    /// when the body ran `growthRounds` times.
    public func violations(of figures: AllocationFigures, liveAfterRounds: [UInt64] = []) -> [String] {
        var lines: [String] = []
        func check(_ name: String, _ measured: UInt64, _ limit: UInt64?, _ unit: String) {
            if let limit, measured > limit {
                lines.append("\(name): \(measured)\(unit), limit \(limit)\(unit) (\(measured - limit)\(unit) over)")
            }
        }
        check("bytes allocated", figures.bytes, bytes, " B")
        check("allocations", figures.allocations, allocations, "")
        check("peak live bytes", figures.peakBytes, peakBytes, " B")
        if retainedBytes == 0 && figures.retainedBytes > 0 {
            lines.append("leaked: \(figures.retainedBytes) B in \(figures.retainedBlocks) blocks still live at the end, limit 0 B")
        } else {
            check("retained bytes", figures.retainedBytes, retainedBytes, " B")
        }
        for limit in objects {
            if let measured = limit.measured(in: figures) {
                check("objects of \(limit.typeName)", measured, limit.count, "")
            } else {
                // A limit never passes unmeasured: the class may be among the summed ones.
                lines.append("objects of \(limit.typeName): not counted apart, limit \(limit.count) (the test made objects "
                    + "of more than \(PROFCTL_METER_MAX_TYPES - 1) classes, and \(figures.objectsByClass[0] ?? 0) of them were "
                    + "summed without their class; limit fewer classes per test)")
            }
        }
        check("retains", figures.retains, retains, "")
        if let first = liveAfterRounds.first, let last = liveAfterRounds.last, last > first {
            let rounds = liveAfterRounds.map(String.init).joined(separator: ", ")
            lines.append("growth: live bytes after each of \(liveAfterRounds.count) rounds \(rounds): "
                + "\(last - first) B more after the last than after the first, limit 0 B")
        }
        return lines
    }
}

/// The failure message of a limit: what was over, then every figure, the sites that allocated
/// them and the types, then what a task meter does not see (docs/testing.md, "Exactness").
func limitMessage(_ what: String, violations: [String], figures: AllocationFigures, limits: MemoryLimits = MemoryLimits(),
                  sites: [MeterSite] = []) -> String {
    var lines = ["\(what) exceeded its memory limit:"] + violations.map { "  " + $0 } + ["  measured: \(figures)"]
    lines += MeterSite.lines(sites, byLiveBytes: limits.keptOnly(figures))
    lines += MeterTypes.lines(figures)
    // A dispatch queue's block runs in no task, as a detached task does: work handed to one is
    // not the test's, which a test that dispatches would otherwise not guess.
    lines.append("  (counted per task: the test's task and its structured child tasks; not detached tasks, "
        + "dispatch queues or threads it hands work to)")
    // What the figures leave out, said in every failure with its size, so that nobody looks
    // for those blocks among the test's own (docs/testing.md, "Exactness").
    lines.append("  (not counted: \(figures.runtimeCacheBlocks) blocks, \(figures.runtimeCacheBytes) B the runtimes keep "
        + "for the process, whichever test needs them first: type metadata, conformance caches, lazy globals, "
        + "dispatch continuations; docs/testing.md, \"Exactness\")")
    if limits.retains != nil {
        lines.append("  (retains are counted as they happen, on the task that makes them: one another task or thread makes "
            + "on the test's objects is not the test's, and one made inside a profctl region is the region's)")
    }
    return lines.joined(separator: "\n")
}
