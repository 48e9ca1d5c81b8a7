// A region counts the calling thread and nests; a window counts every thread while it is open.
import Dispatch
import Profiler

// snippet.hide
_ = [Int](repeating: 0, count: 1)
// snippet.show
let outer = try AllocationScope.measure {
    let inner = try AllocationScope.measure { [Int](repeating: 0, count: 100) }
    let more = [Int](repeating: 0, count: 200)
    return (inner, more)
}
let (inner, _) = outer.value
print("inner region keeps \(inner.allocations.netLiveBytes) bytes; outer, which includes it, \(outer.allocations.netLiveBytes)")

// Work handed to other threads: a region on this thread would see none of it.
let fannedOut = try AllocationWindow.measure {
    DispatchQueue.concurrentPerform(iterations: 4) { chunk in
        let parsed = [Int](repeating: chunk, count: 1000)
        precondition(parsed.count == 1000)
    }
}
print("the window counted \(fannedOut.allocations.requestedBytes) bytes requested on every thread")
