// What an instance costs depends on its type: a class instance is one heap object, a struct
// lives where it is stored, and an array keeps its elements in one heap object.
import Profiler

final class PointObject {
    var x = 0.0, y = 0.0, z = 0.0
}

struct PointValue {
    var x = 0.0, y = 0.0, z = 0.0
}

// snippet.hide
_ = (PointObject(), [PointValue](repeating: PointValue(), count: 1))
// snippet.show
let object = try AllocationScope.measure { PointObject() }
let value = try AllocationScope.measure { PointValue() }
let array = try AllocationScope.measure { [PointValue](repeating: PointValue(), count: 10) }
print("class: \(object.allocations.netLiveBytes) bytes")   // 16 of object header + 3 × 8 of fields
print("struct: \(value.allocations.netLiveBytes) bytes")   // none: it lives inline
print("array of 10: \(array.allocations.netLiveBytes) bytes")   // 32 of storage header + 10 × 24
