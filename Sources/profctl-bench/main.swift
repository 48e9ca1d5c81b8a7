// profctl-bench: what the measuring machinery costs, as ratios against a baseline
// measured in the same run (machines here are noisy; absolute figures are context).
//
//   swift run -c release profctl-bench [--quick]
import CAllocationHooks
import CBenchLoops
import Foundation
import Profiler

do {
    try runBenchmarks()
} catch {
    FileHandle.standardError.write(Data("profctl-bench: error: \(error)\n".utf8))
    exit(1)
}

func runBenchmarks() throws {
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
        // The recorder creates the schema, the run and (with one event) the subject the rows
        // refer to; then the C loop writes the rest.
        let recorder = try Recorder.start(database: path, run: description)
        try recorder.record(event)
        try recorder.finish()
        let subject = try SQLiteConnection(path: path, mode: .readOnly).scalar("SELECT max(subject_id) FROM subjects")?.int64 ?? 0
        let elapsed = bench_insert_events(path, recorder.runKey, subject, Int64(events), Int32(Recorder.batchSize))
        guard elapsed > 0 else { throw SQLiteError(code: 1, message: "the C insert loop failed") }
        return Double(events) / (Double(elapsed) / 1e9)
    }
    // Ingest is timed up to the moment every event is in the database; the rollups written
    // at the end of the run are timed on their own.
    var rollupSeconds: [Double] = []
    let recorded = try measure { () throws -> Double in
        let recorder = try Recorder.start(database: freshDatabase(), run: description)
        let start = AllocationScope.monotonicNanoseconds()
        var e = event
        for i in 0..<events {
            e.instance = i
            try recorder.record(e)
        }
        try recorder.drain()
        let drained = AllocationScope.monotonicNanoseconds()
        try recorder.finish()
        rollupSeconds.append(Double(AllocationScope.monotonicNanoseconds() - drained) / 1e9)
        return Double(events) / (Double(drained - start) / 1e9)
    }
    lines.append(Line(metric: "events recorded per second", baseline: "plain C insert loop", baselineValue: plainC, value: recorded, unit: "events/s"))
    let rollupMilliseconds = median(rollupSeconds) * 1000
    let ingestMilliseconds = Double(events) / recorded * 1000
    lines.append(Line(metric: "rollups at run end, \(events) events", baseline: "ingest of those events", baselineValue: ingestMilliseconds, value: rollupMilliseconds, unit: "ms"))

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
}
