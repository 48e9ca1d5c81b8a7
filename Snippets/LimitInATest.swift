// A memory limit on one component: fail when building it keeps more than its budget.
// In a Swift Testing test the last lines are `#expect(row.allocations.netLiveBytes <= limit)`.
import Foundation
import Profiler

final class InboxRow {
    var title = "Q3 report"
    var unread = true
}

let limit = 64   // bytes one row may keep
_ = InboxRow()   // unmeasured first use: runtime metadata is allocated once per process
let row = try AllocationScope.measure { InboxRow() }
guard row.allocations.netLiveBytes <= limit else {
    print("an inbox row keeps \(row.allocations.netLiveBytes) bytes, over its limit of \(limit)")
    exit(1)
}
print("an inbox row keeps \(row.allocations.netLiveBytes) bytes, within its limit of \(limit)")
