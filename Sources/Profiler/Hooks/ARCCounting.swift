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
        /// Also what a window capturing types throws when the runtime's allocation hook refuses.
        package init(reason: String) { self.reason = reason }
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

    /// The counting method, as runs store it (`runs.arc_counting`): the runtime's hook
    /// pointers with swift_retain's adapter slot replaced (docs/hooks.md, "ARC traffic").
    /// Two runs counted by different methods are not compared (`check` exits 6).
    package static let method = "runtime-hooks"

    /// What a run stores as its method where this runtime refused counting: its retains and
    /// releases are NULL ("not counted"), never 0.
    package static let unavailableMethod = "unavailable"

    /// Turns counting on where this runtime allows it, and names how the work is counted:
    /// ``method``, or ``unavailableMethod`` (the refusal is not an error: the run's bytes are
    /// measured as ever, its retains and releases are not counted).
    package static func enableWhereAvailable() -> String {
        do {
            try enable()
            return method
        } catch {
            return unavailableMethod
        }
    }
}
