import CAllocationHooks

/// Counting Swift's retains and releases per region and window (``Allocations/retains``,
/// ``Allocations/releases``), like allocations.
///
///     try ARCCounting.enable()
///     let m = try AllocationScope.measure { makeTree() }
///     print(m.allocations.retains, m.allocations.releases)
///
/// The Swift runtime's retain and release entry points are routed through the hooks once,
/// and counting is on while enabled. While it is off, the runtime takes its own fast path
/// and the hooks add nothing. What it sees and cannot see: docs/hooks.md, "ARC traffic".
public enum ARCCounting {
    /// Why ARC counting cannot be turned on in this process.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        /// The runtime's problem, in words.
        public let reason: String
        public var description: String { "ARC counting is unavailable: \(reason)" }
    }

    /// Routes the runtime's retains and releases through the hooks (once per process) and
    /// turns counting on. Throws ``Unavailable`` on a runtime the hooks do not know, and
    /// writes nothing into it then.
    public static func enable() throws {
        guard profctl_arc_install() == 0 else {
            throw Unavailable(reason: String(cString: profctl_arc_refusal()))
        }
        _ = profctl_arc_set_counting(1)
    }

    /// Turns counting off: the runtime's own fast path again, at no cost.
    public static func disable() { _ = profctl_arc_set_counting(0) }

    /// True while retains and releases are counted.
    public static var isEnabled: Bool { profctl_arc_counting() != 0 }
}
