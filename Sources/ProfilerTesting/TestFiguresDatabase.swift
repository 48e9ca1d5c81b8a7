import Foundation
import ProfilerModel
import ProfilerQueries
import ProfilerRecording
import ProfilerStore
import Synchronization
import Testing

/// `PROFCTL_TEST_DB=path`: the figures of every test measured under a memory limit go into
/// a profile database, one run per test target per test process (the run's scenario is the
/// target's module name), each test a component, so `profctl report`, `check --baseline`
/// and `trend` work on them as on scenarios (docs/testing.md, "Figures in a database").
///
/// The runs are written by the recorder `profctl record` uses (events through its writer
/// thread, rollups when the run ends), not by a writer of their own. A run is completed when
/// the process exits; a process that dies first leaves it running, and the next writer of
/// the file marks it aborted, which `check` refuses: a half-written run is never a result.
/// Unset, nothing here runs past reading the variable once.
enum TestFiguresDatabase {
    static let variable = "PROFCTL_TEST_DB"
    /// The one strategy of a test run: a test is measured one way.
    static let strategy = "test"

    /// The variable's value, read once: nil when unset.
    private static let path: String? = ProcessInfo.processInfo.environment[variable]

    /// Adds the current test's figures to its target's run; records an issue (the test
    /// fails) when they cannot be kept, naming the variable and the path.
    static func record(_ figures: AllocationFigures, limits: MemoryLimits, sourceLocation: SourceLocation) {
        guard let path, let test = Test.current else { return }
        let module = test.id.moduleName
        let component = test.id.nameComponents.joined(separator: "/")
        do {
            try runs.withLock { runs in
                let run = try runs[module] ?? TargetRun(module: module, path: path)
                runs[module] = run
                try run.add(component: component, figures, limits)
            }
        } catch {
            Issue.record(Comment(rawValue: "\(variable)=\(path): \(test.name)'s memory figures were not recorded: \(error)"),
                         sourceLocation: sourceLocation)
        }
    }

    /// Each test target's run in this process, by module name (or why it could not start).
    private static let runs = Mutex<[String: TargetRun]>([:])

    /// Completes every run: rollups, status `complete`. Called once, at exit.
    static func finishAll() {
        let all = runs.withLock { runs in
            defer { runs = [:] }
            return Array(runs.values)
        }
        var failed = false
        for run in all {
            do { try run.finish() } catch {
                failed = true
                let message = "\(variable)=\(path ?? ""): the run of \(run.module)'s test figures could not be completed "
                    + "and is marked aborted: \(error)\n"
                FileHandle.standardError.write(Data(message.utf8))
            }
        }
        // Tests passed while their figures were lost: the process must not exit 0.
        if failed {
            fflush(nil)
            _exit(1)
        }
    }
}

/// One test target's run: its recorder, how many cases of each test it holds, or the
/// error that kept it from starting (every later test of the target reports it too).
private final class TargetRun: @unchecked Sendable {
    let module: String
    private let recorder: Result<Recorder, any Error>
    /// Guarded by TestFiguresDatabase.runs's lock, like every use of the recorder here.
    private var cases: [String: Int] = [:]

    init(module: String, path: String) throws {
        self.module = module
        recorder = Result {
            if path.isEmpty { throw TestFiguresDatabaseError.emptyPath }
            let description = RunDescription(
                scenario: module, baselineStrategy: TestFiguresDatabase.strategy, parameters: [:],
                report: ReportDeclaration.testFigures.name, reportViews: [try ReportDeclaration.testFigures.repeatableView()])
            // ARC counting stays off: turning it on would change how every test of the process runs.
            let recorder = try Recorder.start(database: path, run: description,
                                              environment: .current(countARC: false), bufferCapacity: 1_024)
            ExitHandler.once()
            return recorder
        }
    }

    func add(component: String, _ figures: AllocationFigures, _ limits: MemoryLimits) throws {
        let recorder = try recorder.get()
        let instance = cases[component, default: 0]
        cases[component] = instance + 1
        let strategy = TestFiguresDatabase.strategy
        // A step per test: the figures an event has no column for are its metrics.
        try recorder.enterStep(component)
        try recorder.record(Event(
            kind: .create, component: component, strategy: strategy, repeatIndex: 0, instance: instance,
            allocations: Int(clamping: figures.allocations), frees: Int(clamping: figures.frees),
            netLiveBytes: Int(clamping: figures.retainedBytes), netLiveUsableBytes: 0, durationNanoseconds: 0))
        var metrics: [(String, UInt64?)] = [
            ("bytes_allocated", figures.bytes), ("peak_bytes", figures.peakBytes),
            ("blocks_retained", figures.retainedBlocks), ("rounds", UInt64(max(limits.growthRounds ?? 1, 1))),
        ]
        metrics += [("bytes_limit", limits.bytes), ("allocations_limit", limits.allocations),
                    ("peak_limit", limits.peakBytes), ("retained_limit", limits.retainedBytes)]
        for case (let name, let value?) in metrics {
            try recorder.metric(name, Double(value), strategy: strategy, repeatIndex: 0)
        }
    }

    func finish() throws {
        guard case .success(let recorder) = recorder else { return }
        try recorder.finish()
    }
}

/// Registers the exit handler that completes the runs, the first time a run starts.
private enum ExitHandler {
    private static let registered = Atomic<Bool>(false)

    static func once() {
        guard !registered.exchange(true, ordering: .relaxed) else { return }
        atexit { TestFiguresDatabase.finishAll() }
    }
}

enum TestFiguresDatabaseError: Error, CustomStringConvertible {
    case emptyPath

    var description: String {
        "the variable is set but empty; name the database file the figures go into "
            + "(\(TestFiguresDatabase.variable)=tests.sqlite), or unset it"
    }
}
