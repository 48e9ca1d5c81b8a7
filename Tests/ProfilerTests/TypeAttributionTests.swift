import Foundation
import Testing
import ProfctlTestSupport
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerRecording

// Classes of known layout for the witness: a parent holds two children of other classes.
final class TypeWitnessLeft: Sendable { let value = 1 }
final class TypeWitnessRight: Sendable { let values = (1, 2, 3) }
final class TypeWitnessParent: Sendable {
    let left = TypeWitnessLeft()
    let right = TypeWitnessRight()
}

/// Builds `count` parents in one measured instance each and emits a create event for each,
/// capturing types; returns the types by name and the events.
private func captureParents(count: Int, keepAlive: Bool) throws -> (CapturedTypes, [Event]) {
    let sink = CollectingSink()
    let probe = Probe(sink: sink, component: "Parent", strategy: "eager")
    try TypeCapture.shared.start()
    var kept: [TypeWitnessParent] = []
    kept.reserveCapacity(count)
    for i in 0..<count {
        let parent = try probe.instance(i).measure(.create) { keep(TypeWitnessParent()) }
        if keepAlive { kept.append(parent) }
    }
    let captured = TypeCapture.shared.stop()
    withExtendedLifetime(kept) {}
    return (captured, sink.events)
}

private func byName(_ captured: CapturedTypes) -> [String: TypeCounts] {
    var result: [String: TypeCounts] = [:]
    for (key, c) in captured.counts { result[key.type, default: TypeCounts()].add(c) }
    return result
}

// Type capture turns the runtime's instrumentation flag on (process-wide), so these run in
// their own process (exit tests), as ARC counting's tests do.
@Suite("Swift object types")
struct TypeAttributionTests {
    @Test("witness: N parents with 2 child objects each are 3N objects of 3 named types, all live, nothing left over")
    func witness() async {
        await #expect(processExitsWith: .success) {
            try onOwnThread {
                let n = 100
                let (captured, events) = try captureParents(count: n, keepAlive: true)
                let types = byName(captured)
                let parent = types["ProfilerTests.TypeWitnessParent"], left = types["ProfilerTests.TypeWitnessLeft"]
                let right = types["ProfilerTests.TypeWitnessRight"]
                guard let parent, let left, let right,
                      parent.objects == n, left.objects == n, right.objects == n,
                      parent.liveObjects == n, left.liveObjects == n, right.liveObjects == n,
                      parent.liveRequestedBytes == parent.requestedBytes, parent.requestedBytes > 0 else {
                    FileHandle.standardError.write(Data("types: \(types)\n".utf8))
                    exit(1)
                }
                // The types add up to the region's figures exactly (the events' allocations),
                // and the remainder is empty: the three classes are all there is.
                let allocations = events.reduce(0) { $0 + $1.allocations }
                let total = types.values.reduce(0) { $0 + $1.objects }
                guard allocations == 3 * n, total == allocations, types[ObjectTypeCounts.remainder] == nil else {
                    FileHandle.standardError.write(Data("allocations \(allocations), typed \(total): \(types)\n".utf8))
                    exit(1)
                }
            }
        }
    }

    @Test("objects freed before their instance's measurement ended are counted, and not live")
    func freedObjectsAreNotLive() async {
        await #expect(processExitsWith: .success) {
            try onOwnThread {
                let (captured, _) = try captureParents(count: 50, keepAlive: false)
                // The parents outlive their region (measure returns them) and die after it:
                // live when it closed. Their temporaries inside a region are tested below.
                let types = byName(captured)
                guard types["ProfilerTests.TypeWitnessParent"]?.liveObjects == 50 else { exit(1) }
                let sink = CollectingSink()
                try TypeCapture.shared.start()
                try Probe(sink: sink, component: "Temporaries", strategy: "s").measure(.create) {
                    for _ in 0..<10 { _ = keep(TypeWitnessParent()) }
                }
                let temporaries = byName(TypeCapture.shared.stop())
                guard let p = temporaries["ProfilerTests.TypeWitnessParent"], p.objects == 10, p.liveObjects == 0,
                      p.liveRequestedBytes == 0 else {
                    FileHandle.standardError.write(Data("temporaries: \(temporaries)\n".utf8))
                    exit(1)
                }
            }
        }
    }

    @Test("an object freed on another thread while its region is open is not live, and nothing crashes")
    func crossThreadFree() async {
        await #expect(processExitsWith: .success) {
            try onOwnThread {
                let sink = CollectingSink()
                try TypeCapture.shared.start()
                try Probe(sink: sink, component: "Handoff", strategy: "s").measure(.create) {
                    var parents: [TypeWitnessParent]? = (0..<20).map { _ in TypeWitnessParent() }
                    let handedOver = parents
                    parents = nil
                    let done = DispatchSemaphore(value: 0)
                    let thread = Thread {
                        withExtendedLifetime(handedOver) {}
                        done.signal()
                    }
                    thread.start()
                    done.wait()
                }
                // The other thread may drop its copy a little after the signal: wait for it.
                let types = byName(TypeCapture.shared.stop())
                guard let p = types["ProfilerTests.TypeWitnessParent"], p.objects == 20, p.liveObjects <= 20 else {
                    FileHandle.standardError.write(Data("handoff: \(types)\n".utf8))
                    exit(1)
                }
            }
        }
    }

    @Test("stdlib storage and closure contexts are named by the runtime; unclaimed blocks form the remainder")
    func storageAndRemainder() async {
        await #expect(processExitsWith: .success) {
            try onOwnThread {
                let sink = CollectingSink()
                try TypeCapture.shared.start()
                let kept = try Probe(sink: sink, component: "Mixed", strategy: "s").measure(.create) { () -> (Any, Any, UnsafeMutableRawPointer?) in
                    let array = keep([1, 2, 3, 4])
                    var counter = keep(0)
                    let closure: () -> Int = { counter += 1; return counter }
                    return (array, keep(closure), malloc(24))
                }
                let types = byName(TypeCapture.shared.stop())
                free(kept.2)
                let remainder = types[ObjectTypeCounts.remainder]
                guard types["Swift._ContiguousArrayStorage<Swift.Int>"]?.objects == 1,
                      types.keys.contains(where: { $0.hasPrefix("(closure context") }),
                      let remainder, remainder.objects >= 1, remainder.requestedBytes >= 24,
                      !types.keys.contains(where: { $0.contains("unknown context at") || $0.contains("invalid type") }) else {
                    FileHandle.standardError.write(Data("mixed: \(types)\n".utf8))
                    exit(1)
                }
                let events = sink.events
                let typed = types.values.reduce(0) { $0 + $1.objects }
                guard typed == events.reduce(0, { $0 + $1.allocations }) else { exit(1) }
            }
        }
    }

    @Test("private types' context addresses are normalised away")
    func normalisedNames() {
        #expect(TypeName.normalized("M.(unknown context at $7f12ab).Foo<M.(unknown context at $55).Bar>")
                == "M.(unknown context).Foo<M.(unknown context).Bar>")
        #expect(TypeName.normalized("Swift.Int") == "Swift.Int")
    }
}
