// profctl-bench: what the measuring machinery costs, each figure against a baseline
// measured in the same run (machines here are noisy; absolute figures are context).
//
//   swift run -c release profctl-bench [--quick] [--json FILE] [--skip-scale] [--only SECTION]
//   profctl-bench --hook-loop MODE PAIRS SIZE   (for callgrind: scripts/hook-instructions)
//   profctl-bench --fixed-cost-loop RUNS         (for perf record: the fixed cost of a run, RUNS times)
//   profctl-bench --record-loop INSTANCES        (for perf record: lazy-container bare, then recorded)
import CAllocationHooks
import Foundation
import Profiler

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--write-synthetic", let count = Int(arguments[2]) {
    do { try AtScale.writeSynthetic(count: count, path: arguments[3]); exit(0) } catch {
        FileHandle.standardError.write(Data("profctl-bench: \(error)\n".utf8))
        exit(1)
    }
}

if arguments.count == 5, arguments[1] == "--hook-loop", let pairs = UInt64(arguments[3]), let size = Int(arguments[4]) {
    do { try HookLoop.run(mode: arguments[2], pairs: pairs, size: size); exit(0) } catch {
        FileHandle.standardError.write(Data("profctl-bench: \(error)\n".utf8))
        exit(64)
    }
}

// `--fixed-cost-loop RUNS`: records RUNS one-event runs into one database and prints the
// median wall and CPU milliseconds, for profiling the fixed cost (perf record, strace).
if arguments.count == 3, arguments[1] == "--fixed-cost-loop", let runs = Int(arguments[2]), runs > 0 {
    do {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cost = try EndToEnd(instances: [], bytesInstances: 0, folder: folder).fixedCost(rounds: runs)
        print("fixed cost per run: \(cost.wall) ms wall, \(cost.cpu) ms CPU (median of \(runs))")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("profctl-bench: \(error)\n".utf8))
        exit(1)
    }
}

// `--record-loop INSTANCES`: lazy-container bare, then recorded, once each, printing both
// times, for profiling the recorder's per-instance path (perf record).
if arguments.count == 3, arguments[1] == "--record-loop", let count = Int(arguments[2]), count > 0 {
    do {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let endToEnd = EndToEnd(instances: [], bytesInstances: 0, folder: folder)
        let bare = try endToEnd.bare(count)
        let run = try endToEnd.recorded(count, into: folder.appendingPathComponent("record-loop.sqlite").path)
        print("bare \(bare * 1000) ms, recorded \(run.seconds * 1000) ms (\(run.seconds / bare)x), \(Int(Double(run.events) / run.seconds)) events/s")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("profctl-bench: \(error)\n".utf8))
        exit(1)
    }
}

let quick = arguments.contains("--quick")
/// `--only SECTION` (hooks, scenarios, end-to-end, fixed-cost, ingest, scale): one section, for iterating on it.
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
func wanted(_ section: String) -> Bool { only == nil || only == section }
let jsonPath = arguments.firstIndex(of: "--json").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let rounds = quick ? 3 : 7

func progress(_ text: String) { FileHandle.standardError.write(Data("profctl-bench: \(text)\n".utf8)) }

do {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let loop = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("malloc-loop").path

    var figures: [Figure] = []
    if wanted("hooks") {
        progress("hook cost")
        figures += try HookCost(pairs: quick ? 400_000 : 4_000_000, rounds: rounds).figures(loop: loop)
    }
    if wanted("scenarios") {
        progress("scenario slowdown")
        figures += try ScenarioSlowdown(rounds: rounds, folder: folder, quick: quick).figures()
    }
    if only == "fixed-cost" {
        figures += try EndToEnd(instances: [], bytesInstances: 0, folder: folder).fixedCostFigures()
    }
    if wanted("end-to-end") {
        progress("end to end")
        figures += try EndToEnd(instances: quick ? [1000, 10_000] : [1000, 100_000], bytesInstances: quick ? 1000 : 5000,
                                folder: folder).figures()
    }
    if wanted("ingest") {
        progress("ingest")
        figures += try Ingest(events: quick ? 100_000 : 1_000_000, rounds: quick ? 2 : 3, folder: folder).figures()
    }
    if wanted("scale") && !arguments.contains("--skip-scale") {
        progress("databases at scale")
        figures += try AtScale(sizes: quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000], folder: folder).figures()
    }

    func text(_ v: Double?) -> SQLValue {
        guard let v else { return .text("-") }
        return .text(v >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v))
    }
    print("profctl-bench: \(RunEnvironment.buildConfiguration) build, \(rounds) rounds, median; \(ProcessInfo.processInfo.activeProcessorCount) cores; usable sizes from chunk headers: \(profctl_hooks_header_usable_size() != 0)")
    print("")
    print(TableRenderer().render(ResultTable(
        columns: ["section", "metric", "baseline", "baseline value", "value", "unit", "ratio", "target", "met"],
        rows: figures.map { f in
            [.text(f.section), .text(f.metric), .text(f.baseline), text(f.baselineValue), text(f.value), .text(f.unit),
             f.ratio.map { .text(String(format: "%.2fx", $0)) } ?? .text("-"), .text(f.target ?? "-"),
             .text(f.met.map { $0 ? "yes" : "NO" } ?? "-")]
        })), terminator: "")
    if let jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(figures).write(to: URL(fileURLWithPath: jsonPath))
        progress("wrote \(jsonPath)")
    }
} catch {
    FileHandle.standardError.write(Data("profctl-bench: error: \(error)\n".utf8))
    exit(1)
}
