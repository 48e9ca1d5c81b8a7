// Measure what building a value allocates and keeps, on the calling thread.
import Profiler

final class Avatar {
    let initials: String
    var pixels = [UInt8](repeating: 0, count: 32 * 32)
    init(initials: String) { self.initials = initials }
}

// The first use of a type allocates its runtime metadata once per process: measure it once unmeasured.
_ = Avatar(initials: "WU")
let measured = try AllocationScope.measure { Avatar(initials: "PD") }
print("an avatar keeps \(measured.allocations.netLiveBytes) bytes in \(measured.allocations.allocations) allocations")
