// hook-witness WORKLOAD: runs a workload once to warm up, then again inside a process-wide
// AllocationWindow, and prints the window's figures:
//   allocations requested_bytes net_live_bytes untracked_freed_usable_bytes
// Run under heaptrack with PROFCTL_HOOKS_CHAIN=1, the hooks forward to heaptrack's malloc,
// so heaptrack records the very same allocations; the window lies between two allocations
// of sizes nothing else asks for (witnessBeginMarker, witnessEndMarker). heaptrack records
// every thread's allocations in one ordered stream, so what lies between them is the window
// (Tests/ProfilerTests/WindowWitnessTests.swift compares the two).
import Foundation
import HookWitness
import Profiler

/// The markers, the window and the pauses all on one executor: a hop between executors
/// allocates (a dispatch continuation), and must not fall between a marker and the window.
nonisolated func measured(_ workload: Workload) async throws -> Measured<[[String: [Int]]]> {
    // Let the warm-up's stragglers (task teardown on pool threads) finish first.
    usleep(100_000)
    free(malloc(witnessBeginMarker))
    let measured = try await AllocationWindow.measure { () async -> [[String: [Int]]] in
        let kept = await workload.run()
        // And this run's, inside the window.
        usleep(100_000)
        return kept
    }
    free(malloc(witnessEndMarker))
    return measured
}

/// The types witness (docs/hooks.md, "Types"): a JSONDecoder decode of a fixed document in a
/// measured region with types captured, the markers inside it; prints
/// `objects OBJECTS remainder BLOCKS` and a line `COUNT TYPE` per type. Under heaptrack
/// (PROFCTL_HOOKS_CHAIN=1) the allocations between the markers whose stack passes through
/// swift_allocObject must number OBJECTS (Tests/ProfilerTests/TypesWitnessTests.swift).
func jsonTypes() throws {
    final class Kept: EventSink, @unchecked Sendable { func record(_ event: Event) throws {} }
    try TypeCapture.shared.start()
    // The warm-up instantiates the decoder's metadata and caches, uncounted (a discarding sink).
    let warmUp = try Probe(sink: DiscardingSink(), component: "JSONDecoder", strategy: "decode").measure(.create) {
        try decodeWitnessDocument()
    }
    usleep(100_000)
    // The markers inside the region, so that what lies between them is the region's own
    // work (the probe's bookkeeping around it allocates too): they are its remainder's 2 blocks.
    let decoded = try Probe(sink: Kept(), component: "JSONDecoder", strategy: "decode").measure(.create) {
        free(malloc(witnessBeginMarker))
        let orders = try decodeWitnessDocument()
        free(malloc(witnessEndMarker))
        return orders
    }
    let captured = TypeCapture.shared.stop()
    var objects = 0, remainder = 0
    var lines: [String] = []
    for (key, c) in captured.counts.sorted(by: { $0.key.type < $1.key.type }) {
        if key.type == ObjectTypeCounts.remainder { remainder += c.objects; continue }
        objects += c.objects
        lines.append("\(c.objects) \(key.type)")
    }
    print("objects \(objects) remainder \(remainder)")
    for line in lines { print(line) }
    withExtendedLifetime((warmUp, decoded)) { exit(0) }
}

/// The same witness in a window (`AllocationWindow.measureTypes`): the decode runs on
/// another thread while the window is open, and the markers lie inside the window; prints
/// `objects OBJECTS remainder BLOCKS` and a line per type as json-types does.
func jsonWindowTypes() throws {
    func decodeElsewhere() throws -> [WitnessOrder] {
        try DispatchQueue.global().sync { try decodeWitnessDocument() }
    }
    let warmUp = try AllocationWindow.measureTypes { try decodeElsewhere() }
    usleep(100_000)
    let decoded = try AllocationWindow.measureTypes { () throws -> [WitnessOrder] in
        free(malloc(witnessBeginMarker))
        let orders = try decodeElsewhere()
        free(malloc(witnessEndMarker))
        return orders
    }
    let typed = decoded.types.filter { !$0.isRemainder }
    let remainder = decoded.types.first(where: \.isRemainder)?.objects ?? 0
    print("objects \(typed.reduce(0) { $0 + $1.objects }) remainder \(remainder)")
    for type in typed.sorted(by: { $0.name < $1.name }) { print("\(type.objects) \(type.name)") }
    withExtendedLifetime((warmUp, decoded)) { exit(0) }
}

if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "json-window-types" {
    do { try jsonWindowTypes() } catch {
        FileHandle.standardError.write(Data("hook-witness: \(error)\n".utf8))
        exit(1)
    }
}

if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "json-types" {
    do { try jsonTypes() } catch {
        FileHandle.standardError.write(Data("hook-witness: \(error)\n".utf8))
        exit(1)
    }
}

guard CommandLine.arguments.count == 2, let workload = Workload(rawValue: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: hook-witness WORKLOAD (one of: \(Workload.allCases.map(\.rawValue).joined(separator: ", ")), json-types, json-window-types)\n".utf8))
    exit(64)
}
do {
    // The warm-up runs in a window too, so whatever the first window instantiates (the
    // runtime's metadata for Measured<...>) is not charged to the measured one.
    let warmUp = try await measured(workload)
    let result = try await measured(workload)
    let a = result.allocations
    print(a.allocations, a.requestedBytes, a.netLiveBytes, a.untrackedFreedUsableBytes)
    withExtendedLifetime((warmUp, result)) { exit(0) }
} catch {
    FileHandle.standardError.write(Data("hook-witness: \(error)\n".utf8))
    exit(1)
}
