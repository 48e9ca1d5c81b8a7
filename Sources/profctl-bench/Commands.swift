import Foundation
import Profiler

/// Whole `profctl` commands as a user waits for them (issue 25): the release `profctl`
/// beside this program, started from the current folder (a git checkout, as a user's),
/// on a small database it records first. Each round starts `profctl --version` (the
/// process, the runtime and the argument parser, nothing else: the baseline) and then
/// each command, in turn; the figures are medians, each with the load average of its
/// rounds beside it, since on a loaded machine a start-up mostly waits for a core.
struct Commands {
    let rounds: Int
    let folder: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The commands timed: what the user waits for, and the target of each.
    func commands(database: String) -> [(metric: String, arguments: [String], target: Double)] {
        [
            ("record lazy-container --instances 1 into an existing database",
             ["record", "lazy-container", "--instances", "1", "--db", database, "--quiet"], 30),
            ("report", ["report", "--db", database], 25),
            ("runs", ["runs", "--db", database], 25),
            ("check --baseline previous", ["check", "--baseline", "previous", "--db", database], 25),
        ]
    }

    func figures() throws -> [Figure] {
        let profctl = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("profctl").path
        guard FileManager.default.isExecutableFile(atPath: profctl) else {
            throw Failure(description: "\(profctl) is missing: build it first (swift build -c release --product profctl)")
        }
        let database = folder.appendingPathComponent("commands.sqlite").path
        for _ in 0..<2 { _ = try run(profctl, ["record", "lazy-container", "--instances", "1", "--db", database, "--quiet"]) }
        let commands = commands(database: database)
        var version: [Double] = [], times = Array(repeating: [Double](), count: commands.count)
        let loadBefore = Self.loadAverage()
        for _ in 0..<rounds {
            version.append(try run(profctl, ["--version"]))
            for (index, command) in commands.enumerated() { times[index].append(try run(profctl, command.arguments)) }
        }
        let load = String(format: "load %.1f to %.1f", min(loadBefore, Self.loadAverage()), max(loadBefore, Self.loadAverage()))
        let start = median(version)
        var figures = [Figure(section: "commands", metric: "profctl --version (\(load))", baseline: "-", baselineValue: nil,
                              value: start, unit: "ms", target: nil, met: nil)]
        for (index, command) in commands.enumerated() {
            let value = median(times[index])
            figures.append(Figure(section: "commands", metric: "\(command.metric) (\(load))",
                                  baseline: "profctl --version, same rounds: \(String(format: "%.1f", start)) ms", baselineValue: start,
                                  value: value, unit: "ms", target: "<= \(Int(command.target)) ms idle", met: value <= command.target))
        }
        return figures
    }

    /// Wall milliseconds of one command, from its start to its exit; a failure throws.
    private func run(_ profctl: String, _ arguments: [String]) throws -> Double {
        let start = AllocationScope.monotonicNanoseconds()
        guard let outcome = ChildProcess.run(profctl, arguments), outcome.status != nil else {
            throw Failure(description: "profctl \(arguments.joined(separator: " ")) could not run or was killed")
        }
        let elapsed = Double(AllocationScope.monotonicNanoseconds() - start) / 1e6
        // check may exit 1 when the newer run moved; anything else means the command failed.
        guard outcome.status == 0 || (arguments.first == "check" && outcome.status == 1) else {
            throw Failure(description: "profctl \(arguments.joined(separator: " ")) exited \(outcome.status ?? -1)")
        }
        return elapsed
    }

    /// The 1-minute load average (/proc/loadavg), 0 when unreadable.
    static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return Double(text.split(separator: " ").first ?? "") ?? 0
    }
}
