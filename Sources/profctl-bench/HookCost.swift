import CAllocationHooks
import CBenchLoops
import Foundation
import Profiler

/// Nanoseconds per malloc(64)/free pair, in this process: glibc called directly (the hooks
/// compiled out), and through the hooks in each mode, outside and inside a measured region.
/// Then the same loop in a program without hooks, plain and under heaptrack.
struct HookCost {
    let pairs: UInt64
    let rounds: Int

    func measure(_ mode: Int32?, inRegion: Bool) throws -> Double {
        if let mode { profctl_hooks_set_mode(mode) }
        defer { profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL)) }
        func once() throws -> Double {
            if inRegion {
                return try AllocationScope.measure { Double(bench_malloc_free_pairs(1, pairs, 64)) / Double(pairs) }.value
            }
            return Double(bench_malloc_free_pairs(mode == nil ? 0 : 1, pairs, 64)) / Double(pairs)
        }
        _ = try once()
        return median(try (0..<rounds).map { _ in try once() })
    }

    /// ns per pair of the hook-free loop, plain and under heaptrack.
    func peer(_ loop: String) -> (plain: Double, heaptrack: Double)? {
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
        let plain = (0..<rounds).compactMap { _ in run([loop, count, "64"]) }
        let traced = (0..<max(1, rounds / 2)).compactMap { _ in run(["heaptrack", loop, count, "64"]) }
        if let files = try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path) {
            for file in files where file.hasPrefix("heaptrack.malloc-loop.") {
                try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent(file))
            }
        }
        guard !plain.isEmpty, !traced.isEmpty else { return nil }
        return (median(plain), median(traced))
    }

    func figures(loop: String) throws -> [Figure] {
        let direct = try measure(nil, inRegion: false)
        let forward = try measure(Int32(PROFCTL_HOOKS_FORWARD), inRegion: false)
        let full = try measure(Int32(PROFCTL_HOOKS_FULL), inRegion: false)
        let fullInRegion = try measure(Int32(PROFCTL_HOOKS_FULL), inRegion: true)
        let heaptrack = peer(loop)
        let heaptrackAdded = heaptrack.map { $0.heaptrack - $0.plain }
        func figure(_ metric: String, _ value: Double, target: Double? = nil) -> Figure {
            let added = value - direct
            var text: String?
            var met: Bool?
            if let target {
                text = "added <= \(Int(target)) ns" + (heaptrackAdded.map { String(format: " and <= 1/20 of heaptrack's %.1f ns", $0) } ?? "")
                met = added <= target && (heaptrackAdded.map { added <= $0 / 20 } ?? true)
            }
            return Figure(section: "hook cost", metric: metric, baseline: "hooks compiled out", baselineValue: direct,
                          value: value, unit: "ns/pair", target: text, met: met)
        }
        var figures = [
            figure("hooks present, forwarding only", forward),
            figure("counting + usable sizes, no region", full),
            figure("everything, in a region (as scenarios record)", fullInRegion, target: 5),
        ]
        if let heaptrack {
            figures.append(Figure(section: "hook cost", metric: "heaptrack (LD_PRELOAD) on the same loop", baseline: "same loop without heaptrack",
                                  baselineValue: heaptrack.plain, value: heaptrack.heaptrack, unit: "ns/pair", target: nil, met: nil))
        }
        return figures
    }
}
