import CAllocationHooks

/// What a meter captures beyond its figures, each only while a meter that asks is open
/// (allocation_meters.h): the limits ask for what their failure message names or what they
/// limit, so a test without a trait, or `TaskMeter.measure`, pays for none of it.
package struct MeterCapture: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The call stack of each allocation, summed per stack: the sites a failure names.
    package static let sites = MeterCapture(rawValue: PROFCTL_METER_SITES)
    /// Each Swift object's type (swift_allocObject): for `.objectLimit`.
    package static let types = MeterCapture(rawValue: PROFCTL_METER_TYPES)
    /// Retains and releases: for `.retainLimit`.
    package static let arc = MeterCapture(rawValue: PROFCTL_METER_ARC)

    /// Whether this runtime lets the hooks see each object's type (installed once, here, if
    /// so): every limit's failure then names the types of the test's objects. Where it does
    /// not (an unknown Swift runtime, another tool's hooks), limits other than
    /// `.objectLimit` still measure, their failures without types.
    package static let typesAvailable: Bool = profctl_arc_install() == 0 && profctl_types_install() == 0
}

/// Runs `body` (synchronous: the exclusion belongs to the calling thread) with this thread's
/// allocations, retains and objects kept out of every meter. Reading a meter's sites and
/// types, naming them and writing a failure message allocate, and a meter closes in the
/// caller's task, which may itself be measured (a block inside a limited test): that work
/// is the measuring tool's, not the test's.
func withoutMetering<T>(_ body: () throws -> T) rethrows -> T {
    profctl_exclusion_begin()
    defer { profctl_exclusion_end() }
    return try body()
}
