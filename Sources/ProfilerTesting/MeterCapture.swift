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
}
