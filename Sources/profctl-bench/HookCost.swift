import CAllocationHooks
import CBenchLoops
import Foundation
import Profiler

/// Nanoseconds per malloc(64)/free pair, in this process: glibc called directly (the hooks
/// compiled out), and through the hooks in each mode, outside and inside a measured region.
/// Then the same loop in a program without hooks, plain and under heaptrack.
///
/// The modes are timed interleaved, in short rounds (`roundPairs` pairs, a fraction of a
/// millisecond) that take turns in a rotating order, and each mode's figure is its lowest
/// round: on a machine shared with other builds, a round either ran undisturbed or was slowed
/// by whatever else ran (another process on the core, its caches), never sped up, so the
/// lowest of many short rounds is the undisturbed cost, and every mode had the same chances.
/// A median of a few long rounds (how this was measured before) moved by 30 % and more
/// between runs a minute apart here, more than the hooks' cost itself.
struct HookCost {
    /// Pairs per mode in the long form of the benchmark (quick: a tenth), and its rounds.
    let pairs: UInt64
    let rounds: Int

    /// Pairs per interleaved round: about 0.3 ms, short enough that many rounds run whole
    /// between other processes' time slices.
    var roundPairs: UInt64 { 20_000 }
    /// Interleaved rounds per mode: a quarter of `pairs` x `rounds` pairs in all.
    var interleavedRounds: Int { max(10, Int(pairs / roundPairs) * rounds / 4) }

    /// The ways of calling malloc timed here, in the order of the table.
    enum Mode: CaseIterable {
        case direct, forward, full, fullInRegion

        func once(pairs: UInt64) throws -> Double {
            switch self {
            case .direct:
                return Double(bench_malloc_free_pairs(0, pairs, 64)) / Double(pairs)
            case .forward:
                profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FORWARD))
                defer { profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL)) }
                return Double(bench_malloc_free_pairs(1, pairs, 64)) / Double(pairs)
            case .full:
                return Double(bench_malloc_free_pairs(1, pairs, 64)) / Double(pairs)
            case .fullInRegion:
                return try AllocationScope.measure { Double(bench_malloc_free_pairs(1, pairs, 64)) / Double(pairs) }.value
            }
        }
    }

    /// The lowest round of each mode, the modes taking turns round by round.
    func measure() throws -> [Mode: Double] {
        let modes = Mode.allCases
        for mode in modes { _ = try mode.once(pairs: roundPairs) }  // warm: tables, caches, branch history
        var lowest: [Mode: Double] = [:]
        for round in 0..<interleavedRounds {
            for k in modes.indices {
                let mode = modes[(k + round) % modes.count]
                let value = try mode.once(pairs: roundPairs)
                lowest[mode] = min(lowest[mode] ?? value, value)
            }
        }
        return lowest
    }

    /// ns per pair of the hook-free loop, plain and under heaptrack: the lowest of several
    /// runs of each, as above.
    func peer(_ loop: String, runs: Int) -> (plain: Double, heaptrack: Double)? {
        func run(_ arguments: [String]) -> Double? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.currentDirectoryURL = FileManager.default.temporaryDirectory
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // heaptrack prints its own lines; the loop's figure is the line that is a number.
            return text.split(whereSeparator: \.isNewline).compactMap { Double($0) }.last
        }
        let count = String(pairs / 4)
        let plain = (0..<runs).compactMap { _ in run([loop, count, "64"]) }
        let traced = (0..<max(1, runs / 2)).compactMap { _ in run(["heaptrack", loop, count, "64"]) }
        if let files = try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path) {
            for file in files where file.hasPrefix("heaptrack.malloc-loop.") {
                try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(file))
            }
        }
        guard let plainLowest = plain.min(), let tracedLowest = traced.min() else { return nil }
        return (plainLowest, tracedLowest)
    }

    func figures(loop: String) throws -> [Figure] {
        let lowest = try measure()
        let direct = lowest[.direct] ?? 0
        let peerRuns = rounds
        let heaptrack = peer(loop, runs: peerRuns)
        let heaptrackAdded = heaptrack.map { $0.heaptrack - $0.plain }
        let baseline = "hooks compiled out (lowest of \(interleavedRounds) interleaved rounds of \(roundPairs) pairs)"
        func figure(_ metric: String, _ mode: Mode, target: Double? = nil) -> Figure {
            let value = lowest[mode] ?? 0
            let added = value - direct
            var text: String?
            var met: Bool?
            if let target {
                text = "added <= \(Int(target)) ns" + (heaptrackAdded.map { String(format: " and <= 1/20 of heaptrack's %.1f ns", $0) } ?? "")
                met = added <= target && (heaptrackAdded.map { added <= $0 / 20 } ?? true)
            }
            return Figure(section: "hook cost", metric: metric, baseline: baseline, baselineValue: direct,
                          value: value, unit: "ns/pair", target: text, met: met)
        }
        var figures = [
            figure("hooks present, forwarding only", .forward),
            figure("counting + usable sizes, no region", .full),
            figure("everything, in a region (as scenarios record)", .fullInRegion, target: 5),
        ]
        if let heaptrack {
            figures.append(Figure(section: "hook cost", metric: "heaptrack (LD_PRELOAD) on the same loop",
                                  baseline: "same loop without heaptrack (lowest of \(peerRuns) runs)",
                                  baselineValue: heaptrack.plain, value: heaptrack.heaptrack, unit: "ns/pair", target: nil, met: nil))
        }
        return figures
    }
}
