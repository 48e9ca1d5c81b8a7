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

    public init(bytes: UInt64? = nil, allocations: UInt64? = nil, peakBytes: UInt64? = nil,
                retainedBytes: UInt64? = nil, growthRounds: Int? = nil) {
        self.bytes = bytes
        self.allocations = allocations
        self.peakBytes = peakBytes
        self.retainedBytes = retainedBytes
        self.growthRounds = growthRounds
    }

    /// No limit on anything: nothing is measured.
    public var isEmpty: Bool {
        bytes == nil && allocations == nil && peakBytes == nil && retainedBytes == nil && growthRounds == nil
    }

    /// These limits with `other`'s set figures in place of these: a test's own limit over
    /// its suite's default.
    public func overridden(by other: MemoryLimits) -> MemoryLimits {
        MemoryLimits(bytes: other.bytes ?? bytes, allocations: other.allocations ?? allocations,
                     peakBytes: other.peakBytes ?? peakBytes, retainedBytes: other.retainedBytes ?? retainedBytes,
                     growthRounds: other.growthRounds ?? growthRounds)
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
        if let first = liveAfterRounds.first, let last = liveAfterRounds.last, last > first {
            let rounds = liveAfterRounds.map(String.init).joined(separator: ", ")
            lines.append("growth: live bytes after each of \(liveAfterRounds.count) rounds \(rounds): "
                + "\(last - first) B more after the last than after the first, limit 0 B")
        }
        return lines
    }
}

/// The failure message of a limit: what was over, then every figure, then what a task meter
/// does not see (docs/testing.md, "Exactness").
func limitMessage(_ what: String, violations: [String], figures: AllocationFigures) -> String {
    (["\(what) exceeded its memory limit:"] + violations.map { "  " + $0 }
        + ["  measured: \(figures)",
           "  (counted per task: the test's task and its structured child tasks; not detached tasks or threads it starts)"])
        .joined(separator: "\n")
}
