import Foundation
import Testing
import ProfilerHooks

private final class Node: Sendable {
    let next: Node?
    init(next: Node?) { self.next = next }
}

/// Retains `object` `count` times and releases it as often, each a call into the runtime
/// that the optimizer may not remove (Unmanaged's retain and release are explicit).
@inline(never)
private func retainAndRelease(_ object: Node, count: Int) {
    let unmanaged = Unmanaged.passUnretained(object)
    for _ in 0..<count { _ = unmanaged.retain() }
    for _ in 0..<count { unmanaged.release() }
}

private func measuredTraffic(_ object: Node, count: Int) throws -> (retains: Int, releases: Int) {
    let m = try AllocationScope.measure { retainAndRelease(object, count: count) }
    return (m.allocations.retains, m.allocations.releases)
}

// ARC counting is process-wide (the runtime's flag): every other test's regions would count
// retains while it is on, so these run in their own process (exit tests).
@Suite("ARC counting")
struct ARCCountingTests {
    // Exact, not "at least": each Unmanaged.retain() is one or more runtime calls (3 in a
    // debug build: the call's own copies of the reference), so the figures are linear in the
    // loop count with a whole number per call, and repeat to the unit.
    @Test("a region counts exactly the retains and releases its work makes")
    func exactDifference() async {
        await #expect(processExitsWith: .success) {
            try ARCCounting.enable()
            let node = Node(next: nil)
            let none = try measuredTraffic(node, count: 0)
            let one = try measuredTraffic(node, count: 1_000)
            let two = try measuredTraffic(node, count: 2_000)
            let again = try measuredTraffic(node, count: 1_000)
            let perCall = (one.retains - none.retains) / 1_000
            guard perCall >= 1, one.retains - none.retains == perCall * 1_000,
                  two.retains - one.retains == perCall * 1_000,
                  one.releases - none.releases == one.retains - none.retains,
                  two.releases - one.releases == two.retains - one.retains,
                  one == again else { exit(1) }
        }
    }

    @Test("counting off: regions count no retains, and nothing is written into the runtime before enable")
    func offCountsNothing() async {
        await #expect(processExitsWith: .success) {
            let node = Node(next: nil)
            let before = try measuredTraffic(node, count: 100)
            try ARCCounting.enable()
            ARCCounting.disable()
            let after = try measuredTraffic(node, count: 100)
            guard before.retains == 0, before.releases == 0, after.retains == 0, after.releases == 0,
                  !ARCCounting.isEnabled else { exit(1) }
        }
    }

    @Test("small strings and JSON work under counting do not crash (6.3.1's masking adapter is replaced)")
    func smallStringsSurvive() async {
        await #expect(processExitsWith: .success) {
            try ARCCounting.enable()
            struct Item: Codable { var name: String; var tags: [String] }
            let data = Data(#"[{"name":"a","tags":["x","yz"]},{"name":"bee","tags":[]}]"#.utf8)
            let m = try AllocationScope.measure {
                var total = 0
                for i in 0..<200 {
                    let small = "k\(i)"
                    var copy = [small, small + "!"]
                    copy.append(String(i))
                    total &+= copy.count
                    let items = try JSONDecoder().decode([Item].self, from: data)
                    total &+= items.count
                }
                return total
            }
            guard m.value == 200 * 5, m.allocations.retains > 0, m.allocations.releases > 0 else { exit(1) }
        }
    }

    @Test("a window counts every thread's retains")
    func windowCountsThreads() async {
        await #expect(processExitsWith: .success) {
            try ARCCounting.enable()
            let node = Node(next: nil)
            let m = try AllocationWindow.measure {
                let done = DispatchSemaphore(value: 0)
                let worker = Thread { retainAndRelease(node, count: 500); done.signal() }
                worker.start()
                done.wait()
            }
            guard m.allocations.retains >= 500, m.allocations.releases >= 500 else {
                print(m.allocations.retains, m.allocations.releases)
                exit(1)
            }
        }
    }

    // The adapters count without asking while the thread's tracking byte is set, and take
    // the general way (a window?) when it is not: an excluded stretch clears it.
    @Test("an excluded stretch inside a region counts no retains, in a region or a window")
    func excludedCountsNothing() async {
        await #expect(processExitsWith: .success) {
            try ARCCounting.enable()
            let node = Node(next: nil)
            // The same closures with no loop as the reference: the region's own work and the
            // closures' copies of `node` count in both.
            func excluded(_ count: Int) throws -> Measured<Void> {
                try AllocationScope.measure { AllocationScope.excluded { retainAndRelease(node, count: count) } }
            }
            let none = try excluded(0), many = try excluded(1_000)
            let inWindow = try AllocationWindow.measure { try excluded(1_000) }
            guard many.allocations.retains == none.allocations.retains,
                  many.allocations.releases == none.allocations.releases,
                  inWindow.value.allocations.retains == none.allocations.retains,
                  inWindow.allocations.retains < 1_000 else {
                print(none.allocations, many.allocations, inWindow.value.allocations, inWindow.allocations)
                exit(1)
            }
        }
    }
}
