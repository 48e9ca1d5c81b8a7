import CAllocationHooks

/// What a meter captures beyond its figures, each only while a meter that asks is open
/// (allocation_meters.h): the limits ask for what their failure message names or what they
/// limit, so a test without a trait, or `TaskMeter.measure`, pays for none of it.
struct MeterCapture: OptionSet, Sendable {
    let rawValue: UInt32

    /// The call stack of each allocation, summed per stack: the sites a failure names.
    static let sites = MeterCapture(rawValue: PROFCTL_METER_SITES)
    /// Each Swift object's type (swift_allocObject): for `.objectLimit`.
    static let types = MeterCapture(rawValue: PROFCTL_METER_TYPES)
    /// Retains and releases: for `.retainLimit`.
    static let arc = MeterCapture(rawValue: PROFCTL_METER_ARC)
}
