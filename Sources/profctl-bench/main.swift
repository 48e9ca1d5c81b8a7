// profctl-bench: what the measuring machinery costs, as ratios against a baseline
// measured in the same run (machines here are noisy; absolute figures are context).
//
//   swift run -c release profctl-bench [--quick]
import CAllocationHooks
import CBenchLoops
import Foundation
import Profiler

let quick = CommandLine.arguments.contains("--quick")
let rounds = quick ? 3 : 7

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Runs `body` `rounds` times (after one warm-up) and returns the median.
func measure(_ body: () throws -> Double) rethrows -> Double {
    _ = try body()
    var results: [Double] = []
    for _ in 0..<rounds { results.append(try body()) }
    return median(results)
}

struct Line {
    let metric: String
    let baseline: String
    let baselineValue: Double
    let value: Double
    let unit: String
}
var lines: [Line] = []

// 1. malloc/free pairs: hooks compiled out (glibc directly) vs hooks active, outside and inside a region.
let pairs: UInt64 = quick ? 200_000 : 2_000_000
let size = 64
let direct = measure { Double(bench_malloc_free_pairs(0, pairs, size)) / Double(pairs) }
let hooked = measure { Double(bench_malloc_free_pairs(1, pairs, size)) / Double(pairs) }
let inRegion = try measure {
    try AllocationScope.measure { Double(bench_malloc_free_pairs(1, pairs, size)) / Double(pairs) }.value
}
lines.append(Line(metric: "malloc+free pair, hooks active", baseline: "hooks compiled out", baselineValue: direct, value: hooked, unit: "ns"))
lines.append(Line(metric: "malloc+free pair, inside a measured region", baseline: "hooks compiled out", baselineValue: direct, value: inRegion, unit: "ns"))

// 2. Events recorded per second: the recorder (buffer, writer thread, Swift binding)
//    vs a plain C prepared-insert loop on the same schema, same batch size.
let events = quick ? 50_000 : 300_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func freshDatabase() -> String {
    folder.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
}
let description = RunDescription(scenario: "bench", baselineStrategy: "eager", parameters: [:])
let event = Event(kind: .create, component: "Label", strategy: "lazy-realized", repeatIndex: 0, instance: 0,
                  allocations: 4, frees: 0, requestedBytes: 705, usableBytes: 720, durationNanoseconds: 1200)

let plainC = try measure { () throws -> Double in
    let path = freshDatabase()
    // The recorder creates the schema and the run row the events refer to, then the C loop writes.
    let recorder = try Recorder.start(database: path, run: description)
    let elapsed = bench_insert_events(path, recorder.runID, Int64(events), Int32(Recorder.batchSize))
    try recorder.finish()
    guard elapsed > 0 else { throw SQLiteError(code: 1, message: "the C insert loop failed") }
    return Double(events) / (Double(elapsed) / 1e9)
}
let recorded = try measure { () throws -> Double in
    let recorder = try Recorder.start(database: freshDatabase(), run: description)
    let start = AllocationScope.monotonicNanoseconds()
    var e = event
    for i in 0..<events {
        e.instance = i
        try recorder.record(e)
    }
    try recorder.finish()
    return Double(events) / (Double(AllocationScope.monotonicNanoseconds() - start) / 1e9)
}
lines.append(Line(metric: "events recorded per second (incl. rollups)", baseline: "plain C insert loop", baselineValue: plainC, value: recorded, unit: "events/s"))

func format(_ value: Double) -> String {
    value >= 1000 ? String(format: "%.0f", value) : String(format: "%.1f", value)
}
print("profctl-bench (\(RunEnvironment.buildConfiguration) build, median of \(rounds) rounds)")
print("")
let table = ResultTable(columns: ["metric", "baseline", "baseline value", "value", "unit", "ratio"], rows: lines.map {
    [.text($0.metric), .text($0.baseline), .text(format($0.baselineValue)), .text(format($0.value)), .text($0.unit),
     .text(String(format: "%.2fx", $0.value / $0.baselineValue))]
})
print(TableRenderer().render(table), terminator: "")
