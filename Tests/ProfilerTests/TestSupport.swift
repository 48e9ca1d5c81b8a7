import Foundation
import Profiler
import ProfctlTestSupport
import ProfilerCatalog
import ProfilerChecks
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// The helpers both test targets share (Tests/ProfctlTestSupport), named once for every
/// file of this target.
typealias TemporaryDatabase = ProfctlTestSupport.TemporaryDatabase
typealias TemporaryFolder = ProfctlTestSupport.TemporaryFolder

/// Keeps events in memory, for tests of primitives without a database.
final class CollectingSink: EventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Event] = []

    func record(_ event: Event) throws {
        lock.lock()
        stored.append(event)
        lock.unlock()
    }

    var events: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// Runs `body` on a new thread and waits for it. Swift Testing runs tests as tasks on a
/// shared pool, whose threads now and then free the concurrency runtime's own blocks
/// (allocated during some earlier measured region on that thread); a fresh thread has
/// none, so figures measured there are exact to the byte.
func onOwnThread(_ body: @escaping @Sendable () throws -> Void) throws {
    _ = try onOwnThread { () throws -> Bool in try body(); return true }
}

/// The same, returning what `body` returns.
func onOwnThread<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    let outcome = ThreadOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.result = Result { try body() }
        done.signal()
    }
    thread.start()
    done.wait()
    guard let result = outcome.result else { throw ScenarioError.invalidOption("the measuring thread ended without a result") }
    return try result.get()
}

/// Records a scenario on a thread of its own, so its per-instance figures are exact.
@discardableResult
func recordOnOwnThread(_ scenario: any Scenario, database path: String, options: RecordOptions,
                       environment: RunEnvironment = .current()) throws -> RunSummary {
    try onOwnThread { try ScenarioRunner.record(scenario, database: path, options: options, environment: environment) }
}

/// What a thread of onOwnThread produced; written by that thread, read after it signalled.
final class ThreadOutcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
