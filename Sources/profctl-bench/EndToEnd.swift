import CAllocationHooks
import Foundation
import Profiler

/// lazy-container at scale, recorded as `profctl record` does (into an existing database,
/// environment read once), against the same scenario bare (hooks forwarding, events
/// discarded) in the same run; and the bytes on disk per event of a real recording.
struct EndToEnd {
    let instances: [Int]
    let bytesInstances: Int
    let folder: URL
    /// Read once, as `profctl record` does; that turns ARC counting on process-wide, for the bare
    /// run too, unless `--no-arc` passes an environment that leaves it off.
    var environment = RunEnvironment.current()

    func options(_ count: Int) -> RecordOptions { RecordOptions(instances: count) }

    func bare(_ count: Int) throws -> Double { try bareTimed(count).seconds }

    /// The bare run's seconds and its CPU seconds (one thread: this one).
    func bareTimed(_ count: Int) throws -> (seconds: Double, cpu: Double) {
        let scenario = LazyContainerScenario()
        let resolved = try scenario.resolve(options(count))
        profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FORWARD))
        defer { profctl_hooks_set_mode(Int32(PROFCTL_HOOKS_FULL)) }
        let start = AllocationScope.monotonicNanoseconds()
        let cpuStart = Self.threadCPUNanoseconds()
        try scenario.run(ScenarioContext(sink: DiscardingSink(), repeatIndex: 0, options: resolved))
        return (Double(AllocationScope.monotonicNanoseconds() - start) / 1e9,
                Double(Self.threadCPUNanoseconds() - cpuStart) / 1e9)
    }

    /// Seconds from start to the run marked complete, the events it stored, and CPU seconds:
    /// this thread's (the measuring thread, with the rollups at the end) and the other
    /// threads' (the writer: the process's CPU time minus this thread's).
    func recorded(_ count: Int, into path: String) throws
        -> (seconds: Double, events: Int, measuringCPU: Double, otherCPU: Double) {
        _ = try ProfileStore.openForWriting(path: path)
        let start = AllocationScope.monotonicNanoseconds()
        let threadStart = Self.threadCPUNanoseconds(), processStart = Self.processCPUNanoseconds()
        let summary = try ScenarioRunner.record(LazyContainerScenario(), database: path, options: options(count),
                                                environment: environment)
        let thread = Self.threadCPUNanoseconds() - threadStart, process = Self.processCPUNanoseconds() - processStart
        return (Double(AllocationScope.monotonicNanoseconds() - start) / 1e9, summary.events,
                Double(thread) / 1e9, Double(process > thread ? process - thread : 0) / 1e9)
    }

    /// A fresh database with one real recording, checkpointed: its size per event.
    func bytesPerEvent() throws -> Double {
        let path = folder.appendingPathComponent("bytes-\(UUID().uuidString).sqlite").path
        let events = try recorded(bytesInstances, into: path).events
        let db = try SQLiteConnection(path: path, mode: .readWrite)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = (try db.scalar("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")?.double) ?? 0
        return bytes / Double(events)
    }

    /// What a run costs whatever its events: opening the database, the run row, the
    /// writer, the rollups and the final status, for a run of one event (median of 9):
    /// wall time, and the CPU time of the whole process (all threads), which a machine
    /// busy with other work inflates less.
    func fixedCost(rounds: Int = 9) throws -> (wall: Double, cpu: Double) {
        let path = folder.appendingPathComponent("fixed-cost.sqlite").path
        _ = try ProfileStore.openForWriting(path: path)
        let event = Event(kind: .create, component: "Label", strategy: "eager", repeatIndex: 0, instance: 0,
                          allocations: 1, frees: 0, netLiveBytes: 48, netLiveUsableBytes: 56, durationNanoseconds: 100)
        var times: [Double] = [], cpu: [Double] = []
        for _ in 0..<rounds {
            let start = AllocationScope.monotonicNanoseconds()
            let cpuStart = Self.processCPUNanoseconds()
            let recorder = try Recorder.start(database: path, run: RunDescription(scenario: "fixed-cost", baselineStrategy: "eager",
                                                                                  parameters: [:]),
                                              environment: environment)
            try recorder.record(event)
            try recorder.finish()
            times.append(Double(AllocationScope.monotonicNanoseconds() - start) / 1e6)
            cpu.append(Double(Self.processCPUNanoseconds() - cpuStart) / 1e6)
        }
        return (median(times), median(cpu))
    }

    static func processCPUNanoseconds() -> UInt64 { cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID) }
    static func threadCPUNanoseconds() -> UInt64 { cpuNanoseconds(CLOCK_THREAD_CPUTIME_ID) }

    private static func cpuNanoseconds(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    func fixedCostFigures() throws -> [Figure] {
        let fixed = try fixedCost()
        return [
            // Retired by issue 25 (BENCHMARKS.md, "Round 3"): shown for context, judged by nothing.
            Figure(section: "end to end", metric: "fixed cost per run (open, run row, writer, rollups, status)",
                   baseline: "-", baselineValue: nil, value: fixed.wall, unit: "ms", target: Self.retiredFixedCostTarget, met: nil),
            Figure(section: "end to end", metric: "fixed cost per run, CPU time of all threads",
                   baseline: "-", baselineValue: nil, value: fixed.cpu, unit: "ms", target: nil, met: nil),
        ]
    }

    /// Issue 25's rate on an idle machine (issue 16's was 500,000/s).
    static let eventsPerSecondTarget = (text: ">= 1,000,000/s idle", value: 1_000_000.0)
    /// Issue 25 retired the in-process fixed cost target (what the user waits for replaced it).
    static let retiredFixedCostTarget = "retired (was <= 1 ms)"

    /// Bare and recorded runs per instance count, taking turns; each figure is a median.
    static let pairs = 3

    func figures() throws -> [Figure] {
        var figures = try fixedCostFigures()
        for count in instances {
            // Bare and recorded take turns, three times each, and each figure is the median of
            // its three: a single bare run of 100k instances took 1.2 to 2.4 s in the same
            // minutes on an idle machine here, which alone moved the ratio from 1.5x to 2.8x.
            var bares: [(seconds: Double, cpu: Double)] = []
            var runs: [(seconds: Double, events: Int, measuringCPU: Double, otherCPU: Double)] = []
            for pair in 0..<Self.pairs {
                let path = folder.appendingPathComponent("end-to-end-\(count)-\(pair).sqlite").path
                bares.append(try bareTimed(count))
                runs.append(try recorded(count, into: path))
                try? FileManager.default.removeItem(atPath: path)
            }
            let bareSeconds = median(bares.map(\.seconds)), bareCPU = median(bares.map(\.cpu))
            let run = (seconds: median(runs.map(\.seconds)), events: runs[0].events,
                       measuringCPU: median(runs.map(\.measuringCPU)), otherCPU: median(runs.map(\.otherCPU)))
            let label = count >= 1000 ? "\(count / 1000)k" : "\(count)"
            let rate = Double(run.events) / run.seconds
            figures.append(Figure(section: "end to end", metric: "record lazy-container, \(label) instances (\(run.events) events)",
                                  baseline: "forwarding, no recorder (medians of \(Self.pairs) turns each)", baselineValue: bareSeconds * 1000, value: run.seconds * 1000,
                                  unit: "ms", target: "<= 2x", met: run.seconds <= 2 * bareSeconds))
            figures.append(Figure(section: "end to end", metric: "events per second end to end, \(label) instances",
                                  baseline: "-", baselineValue: nil, value: rate, unit: "events/s",
                                  target: Self.eventsPerSecondTarget.text, met: rate >= Self.eventsPerSecondTarget.value))
            // CPU time per thread against the bare run's: on two otherwise idle cores the
            // recorded run's wall time is about the larger of the two (the threads overlap),
            // on a machine busy with other work nearer their sum. Context, not a target.
            figures.append(Figure(section: "end to end", metric: "CPU time, measuring thread (with the rollups), \(label) instances",
                                  baseline: "bare run's CPU time", baselineValue: bareCPU * 1000, value: run.measuringCPU * 1000,
                                  unit: "ms", target: nil, met: nil))
            figures.append(Figure(section: "end to end", metric: "CPU time, writer (other threads), \(label) instances",
                                  baseline: "bare run's CPU time", baselineValue: bareCPU * 1000, value: run.otherCPU * 1000,
                                  unit: "ms", target: nil, met: nil))
        }
        let bytes = try bytesPerEvent()
        figures.append(Figure(section: "end to end", metric: "bytes on disk per event, lazy-container \(bytesInstances) instances, checkpointed",
                              baseline: "-", baselineValue: nil, value: bytes, unit: "bytes", target: "<= 32", met: bytes <= 32))
        return figures
    }
}
