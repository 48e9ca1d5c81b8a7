// profctl-bench: what the measuring machinery costs, each figure against a baseline
// measured in the same run (machines here are noisy; absolute figures are context).
import ArgumentParser
import CAllocationHooks
import Foundation
import Profiler

/// The sections of the benchmark, in the order a full run measures them.
enum BenchSection: String, CaseIterable, ExpressibleByArgument {
    case hooks, scenarios, endToEnd = "end-to-end", fixedCost = "fixed-cost", ingest, scale, commands, whatif
}

struct ProfctlBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profctl-bench",
        abstract: "Measures what profctl's hooks, recorder and store cost, each figure against a baseline from the same run.",
        discussion: """
            A full run takes several minutes and prints one table: section, metric, baseline, \
            value, ratio, its target and whether it is met. Compare ratios, not \
            absolute figures: wall times on a shared machine move by 30 % and more. Progress \
            goes to stderr. The loop modes run one part once, for callgrind or perf.

            EXAMPLES:
              swift build -c release --product malloc-loop
              swift build -c release --product profctl-bench
              swift build -c release --product profctl
              .build/release/profctl-bench --quick --skip-scale --json /tmp/bench.json
              .build/release/profctl-bench --only fixed-cost
              .build/release/profctl-bench --only commands
              .build/release/profctl-bench --quick --only whatif
              .build/release/profctl-bench --whatif-loop 1000000 10000
              .build/release/profctl-bench --record-loop 2000
              .build/release/profctl-bench --record-loop 2000 --no-arc
              .build/release/profctl-bench --hook-loop full-region 100000 32
            """)

    @Flag(help: "Fewer rounds and smaller sizes: a smoke run of every section (what CI runs).")
    var quick = false

    @Flag(help: "Leave out the databases-at-scale section (it writes 10M events, about a minute).")
    var skipScale = false

    @Option(help: ArgumentHelp("Run one section only.", valueName: "section"))
    var only: BenchSection?

    @Option(help: ArgumentHelp("Also write the figures as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Run PAIRS malloc(SIZE)/free pairs in one MODE and exit (for callgrind; see scripts/hook-instructions).",
                               valueName: "mode pairs size"))
    var hookLoop: [String] = []

    @Option(help: ArgumentHelp("Record RUNS one-event runs into one database and print the median fixed cost (for perf, strace).",
                               valueName: "runs"))
    var fixedCostLoop: Int?

    @Option(help: ArgumentHelp("Run lazy-container with INSTANCES instances bare, then recorded, and print both times (for perf).",
                               valueName: "instances"))
    var recordLoop: Int?

    @Flag(help: "With --record-loop: leave ARC counting off (record turns it on for the whole process), to measure what it costs.")
    var noArc = false

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Write COUNT synthetic events to PATH and print its size in KiB (the scale section runs this).",
                               valueName: "count path"))
    var writeSynthetic: [String] = []

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Compute LRU's curve over a Zipf trace of LOOKUPS over KEYS keys, beside one simulation, and print their CPU times (for /usr/bin/time -v).",
                               valueName: "lookups keys"))
    var whatifLoop: [String] = []

    /// The loop modes are alternatives to a benchmark run and to each other.
    func validate() throws {
        let modes = [!hookLoop.isEmpty, fixedCostLoop != nil, recordLoop != nil, !writeSynthetic.isEmpty, !whatifLoop.isEmpty].filter { $0 }.count
        if modes > 1 {
            throw ValidationError("--hook-loop, --fixed-cost-loop, --record-loop, --write-synthetic and --whatif-loop each run alone; give one of them.")
        }
        if modes == 1 && (quick || skipScale || only != nil || json != nil) {
            throw ValidationError("--quick, --skip-scale, --only and --json apply to a benchmark run, not to a loop mode.")
        }
        if !hookLoop.isEmpty {
            guard hookLoop.count == 3, HookLoop.modes.contains(hookLoop[0]), UInt64(hookLoop[1]) != nil,
                  let size = Int(hookLoop[2]), size >= 0 else {
                throw ValidationError("--hook-loop takes MODE PAIRS SIZE, e.g. '--hook-loop full-region 100000 32'; modes: \(HookLoop.modes.joined(separator: ", ")).")
            }
        }
        if !whatifLoop.isEmpty {
            guard whatifLoop.count == 2, let lookups = Int(whatifLoop[0]), let keys = Int(whatifLoop[1]), lookups >= 1, keys >= 1 else {
                throw ValidationError("--whatif-loop takes LOOKUPS KEYS, e.g. '--whatif-loop 10000000 10000'.")
            }
        }
        if let runs = fixedCostLoop, runs < 1 { throw ValidationError("--fixed-cost-loop takes a number of runs of at least 1.") }
        if noArc && recordLoop == nil { throw ValidationError("--no-arc goes with --record-loop: give both, or leave it out.") }
        if let count = recordLoop, count < 1 { throw ValidationError("--record-loop takes a number of instances of at least 1.") }
        if !writeSynthetic.isEmpty {
            guard writeSynthetic.count == 2, let count = Int(writeSynthetic[0]), count >= 0 else {
                throw ValidationError("--write-synthetic takes COUNT PATH, e.g. '--write-synthetic 1000000 /tmp/scale.sqlite'.")
            }
        }
    }

    func run() throws {
        if hookLoop.count == 3, let pairs = UInt64(hookLoop[1]), let size = Int(hookLoop[2]) {
            return try HookLoop.run(mode: hookLoop[0], pairs: pairs, size: size)
        }
        if whatifLoop.count == 2, let lookups = Int(whatifLoop[0]), let keys = Int(whatifLoop[1]) {
            return WhatIfCost.loop(lookups: lookups, keys: keys)
        }
        if writeSynthetic.count == 2, let count = Int(writeSynthetic[0]) {
            return try AtScale.writeSynthetic(count: count, path: writeSynthetic[1])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if let runs = fixedCostLoop {
            let cost = try EndToEnd(instances: [], bytesInstances: 0, folder: folder).fixedCost(rounds: runs)
            print("fixed cost per run: \(cost.wall) ms wall, \(cost.cpu) ms CPU (median of \(runs))")
            return
        }
        if let count = recordLoop {
            let endToEnd = EndToEnd(instances: [], bytesInstances: 0, folder: folder,
                                    environment: RunEnvironment.current(countARC: !noArc))
            let bare = try endToEnd.bare(count)
            let run = try endToEnd.recorded(count, into: folder.appendingPathComponent("record-loop.sqlite").path)
            print(String(format: "bare %.1f ms, recorded %.1f ms (%.2fx), %.0f events/s",
                         bare * 1000, run.seconds * 1000, run.seconds / bare, Double(run.events) / run.seconds))
            return
        }
        try benchmark(folder: folder)
    }

    private func wanted(_ section: BenchSection) -> Bool { only == nil || only == section }

    private func progress(_ text: String) { FileHandle.standardError.write(Data("profctl-bench: \(text)\n".utf8)) }

    private func benchmark(folder: URL) throws {
        let rounds = quick ? 3 : 7
        let loop = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("malloc-loop").path
        var figures: [Figure] = []
        if wanted(.hooks) {
            progress("hook cost")
            figures += try HookCost(pairs: quick ? 400_000 : 4_000_000, rounds: rounds).figures(loop: loop)
        }
        if wanted(.scenarios) {
            progress("scenario slowdown")
            figures += try ScenarioSlowdown(rounds: rounds, folder: folder, quick: quick).figures()
        }
        if only == .fixedCost {
            figures += try EndToEnd(instances: [], bytesInstances: 0, folder: folder).fixedCostFigures()
        }
        if wanted(.endToEnd) {
            progress("end to end")
            figures += try EndToEnd(instances: quick ? [1000, 10_000] : [1000, 100_000], bytesInstances: quick ? 1000 : 5000,
                                    folder: folder).figures()
        }
        if wanted(.ingest) {
            progress("ingest")
            figures += try Ingest(events: quick ? 100_000 : 1_000_000, rounds: quick ? 2 : 3, folder: folder).figures()
        }
        if wanted(.commands) {
            progress("whole commands")
            figures += try Commands(rounds: quick ? 3 : 9, folder: folder).figures()
        }
        if wanted(.whatif) {
            progress("what-if curves")
            figures += try WhatIfCost(lengths: quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000],
                                      keyCounts: quick ? [1000, 100_000] : [10_000, 1_000_000], rounds: quick ? 1 : 3)
                .figures(progress: progress)
        }
        if wanted(.scale) && !skipScale {
            progress("databases at scale")
            figures += try AtScale(sizes: quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000], folder: folder).figures()
        }
        print("profctl-bench: \(RunEnvironment.buildConfiguration) build; hook costs: the lowest of many short interleaved rounds; others: the median of up to \(rounds) rounds (end to end: of 3 turns each); \(ProcessInfo.processInfo.activeProcessorCount) cores; usable sizes from chunk headers: \(profctl_hooks_header_usable_size() != 0)")
        print("")
        print(TableRenderer().render(Self.table(figures)), terminator: "")
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(figures).write(to: URL(fileURLWithPath: json))
            progress("wrote \(json)")
        }
    }

    private static func table(_ figures: [Figure]) -> ResultTable {
        func text(_ v: Double?) -> SQLValue {
            guard let v else { return .text("-") }
            return .text(v >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v))
        }
        return ResultTable(
            columns: ["section", "metric", "baseline", "baseline value", "value", "unit", "ratio", "target", "met"],
            rows: figures.map { f in
                [.text(f.section), .text(f.metric), .text(f.baseline), text(f.baselineValue), text(f.value), .text(f.unit),
                 f.ratio.map { .text(String(format: "%.2fx", $0)) } ?? .text("-"), .text(f.target ?? "-"),
                 .text(f.met.map { $0 ? "yes" : "NO" } ?? "-")]
            })
    }
}

ProfctlBench.main()
