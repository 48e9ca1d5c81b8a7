import Foundation
import ProfilerHooks
import ProfilerRecording
import ProfilerStore

/// Runs a scenario under a recorder: one run, `repeats` passes, then rollups.
package enum ScenarioRunner {
    /// Checks the options against the scenario first: nothing is written for options
    /// that do not validate. `display`, when given, gets the run's progress about ten
    /// times a second from a thread of its own.
    @discardableResult
    package static func record(_ scenario: any Scenario, database path: String, options: RecordOptions,
                              environment: RunEnvironment = .current(),
                              display: (any ProgressDisplay)? = nil,
                              progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> RunSummary {
        try record(scenario, database: path, resolved: try scenario.resolve(options), environment: environment,
                   display: display, progress: progress)
    }

    /// Records options already resolved against the scenario (`Scenario.resolve`): one
    /// run in the database at `path`, its rollups written when it completes.
    @discardableResult
    package static func record(_ scenario: any Scenario, database path: String, resolved: ResolvedOptions,
                              environment: RunEnvironment = .current(),
                              display: (any ProgressDisplay)? = nil,
                              progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> RunSummary {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        let description = try scenario.description(for: resolved)
        return try record(scenario, recorder: Recorder.start(database: path, run: description, environment: environment),
                          resolved: resolved, display: display, progress: progress)
    }

    /// Opens the database at `path` to record `scenario` into (created and migrated as
    /// needed, its report views installed): for a caller that reads the database before
    /// recording, then records with `record(_:connection:resolved:)` on the same connection.
    package static func openForRecording(_ scenario: any Scenario, resolved: ResolvedOptions,
                                        database path: String) throws -> SQLiteConnection {
        try ProfileStore.openForWriting(path: path, views: scenario.description(for: resolved).reportViews)
    }

    /// Records into a connection from `openForRecording` (the recorder closes it).
    @discardableResult
    package static func record(_ scenario: any Scenario, connection: SQLiteConnection, resolved: ResolvedOptions,
                              environment: RunEnvironment = .current(),
                              display: (any ProgressDisplay)? = nil,
                              progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> RunSummary {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        let description = try scenario.description(for: resolved)
        return try record(scenario, recorder: Recorder.start(connection: connection, run: description, environment: environment),
                          resolved: resolved, display: display, progress: progress)
    }

    private static func record(_ scenario: any Scenario, recorder: Recorder, resolved: ResolvedOptions,
                               display: (any ProgressDisplay)?,
                               progress: @escaping @Sendable (String) -> Void) throws -> RunSummary {
        let ticker = display.map { display in
            ProgressTicker(recorder: recorder, display: display, scenario: resolved.runName,
                           instancesTotal: resolved.repeats * (scenario.plannedInstances(resolved)
                               ?? resolved.int(scenario.countParameter) * resolved.strategies.count))
        }
        defer { ticker?.stop() }
        do {
            try run(scenario, resolved, into: recorder, progress: progress)
        } catch {
            recorder.abort(because: error)
            throw error
        }
        // The bar stays at 99 % while the recorder catches up: it says so.
        ticker?.finishing()
        return try recorder.finish()
    }

    /// Runs every repeat of a scenario into any sink (a recorder, a test's collector):
    /// the measuring part of recording, apart from where the events go.
    package static func run(_ scenario: any Scenario, _ resolved: ResolvedOptions, into sink: any EventSink,
                           progress: @escaping @Sendable (String) -> Void = { _ in }) throws {
        for index in 0..<resolved.repeats {
            if resolved.repeats > 1 { progress("\(scenario.name): repeat \(index + 1) of \(resolved.repeats)") }
            try scenario.run(ScenarioContext(sink: sink, repeatIndex: index, options: resolved, progress: progress))
        }
    }
}

/// Asks a recorder where it stands about ten times a second and tells a display, on a
/// thread of its own, until stopped.
final class ProgressTicker: @unchecked Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let scenarioDone = Flag()

    init(recorder: Recorder, display: any ProgressDisplay, scenario: String, instancesTotal: Int) {
        let thread = Thread { [stopped, done, scenarioDone] in
            while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                let now = recorder.progress
                display.update(ProgressSnapshot(scenario: scenario, component: now.component, strategy: now.strategy,
                                                instancesDone: now.created, instancesTotal: instancesTotal,
                                                events: now.events, elapsedSeconds: Double(recorder.elapsedNanoseconds) / 1e9,
                                                finishing: scenarioDone.isSet))
            }
            display.clear()
            done.signal()
        }
        thread.name = "profctl-progress"
        thread.start()
    }

    /// The scenario has run; what is left is the recorder's.
    func finishing() {
        scenarioDone.set()
    }

    /// Stops ticking and waits until the display is cleared.
    func stop() {
        stopped.signal()
        done.wait()
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
