import Foundation
import Profiler
import ProfilerCLI

// Measure any closure directly (after one unmeasured build: the first use of a type
// allocates its runtime metadata once per process)...
_ = Badge(count: 5)
let one = try AllocationScope.measure { Badge(count: 5) }
FileHandle.standardError.write(Data("one badge: \(one.allocations.netLiveBytes) bytes in \(one.allocations.allocations) allocations\n".utf8))

// ...or record scenarios into a profctl database, with profctl record's options:
//   badge-profiler --db inbox.sqlite --instances 500
ProfilerMain.run(scenarios: [BadgeScenario()])
