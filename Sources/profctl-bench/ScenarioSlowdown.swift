import CAllocationHooks
import Foundation
import Profiler

/// Each built-in scenario with the hooks forwarding only and its events discarded,
/// against the same scenario recorded to SQLite with the hooks measuring.
struct ScenarioSlowdown {
    let rounds: Int
    let folder: URL
    let quick: Bool
    /// Read once, as `profctl record` does per invocation: asking git for the commit and
    /// branch spawns processes, a per-invocation cost that does not grow with the work.
    let environment = RunEnvironment.current()

    func options(for scenario: any Scenario) -> RecordOptions {
        var options = RecordOptions()
        if quick { options.parameters[scenario.countParameter] = .int(scenario.name == "live-room" ? 30 : 50) }
        return options
    }

    func bare(_ scenario: any Scenario) throws -> Double {
        let resolved = try scenario.resolve(options(for: scenario))
        profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FORWARD))
        defer { profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL)) }
        let start = AllocationScope.monotonicNanoseconds()
        try scenario.run(ScenarioContext(sink: DiscardingSink(), repeatIndex: 0, options: resolved))
        return Double(AllocationScope.monotonicNanoseconds() - start) / 1e6
    }

    /// Records into a database that already exists, as `profctl record` usually does
    /// (creating one runs every migration, a one-time cost).
    func recorded(_ scenario: any Scenario) throws -> Double {
        let path = folder.appendingPathComponent("scenarios.sqlite").path
        _ = try ProfileStore.openForWriting(path: path)
        let start = AllocationScope.monotonicNanoseconds()
        try ScenarioRunner.record(scenario, database: path, options: options(for: scenario), environment: environment)
        return Double(AllocationScope.monotonicNanoseconds() - start) / 1e6
    }

    func figures() throws -> [Figure] {
        try BuiltInScenarios.all.map { scenario in
            // Alternate the two, so drift in the machine affects both alike.
            var bareTimes: [Double] = [], recordedTimes: [Double] = []
            _ = try bare(scenario)
            for _ in 0..<rounds {
                bareTimes.append(try bare(scenario))
                recordedTimes.append(try recorded(scenario))
            }
            let baseline = median(bareTimes), value = median(recordedTimes)
            return Figure(section: "scenario slowdown", metric: scenario.name, baseline: "hooks forwarding, no recorder",
                          baselineValue: baseline, value: value, unit: "ms", target: "<= 1.3x", met: value <= 1.3 * baseline)
        }
    }
}
