import Foundation
@testable import Profiler

/// A fresh database path in its own temporary folder, removed when released.
final class TemporaryDatabase {
    let folder: URL
    let path: String

    init(_ name: String = "profile.sqlite") throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("profctl-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent(name).path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

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

/// Keeps a value alive and opaque to the optimizer, so measured allocations are real.
@inline(never)
func keep<T>(_ value: T) -> T { value }

/// Runs `body` on a new thread and waits for it. Swift Testing runs tests as tasks on a
/// shared pool, whose threads now and then free the concurrency runtime's own blocks
/// (allocated during some earlier measured region on that thread); a fresh thread has
/// none, so figures measured there are exact to the byte.
func onOwnThread(_ body: @escaping @Sendable () throws -> Void) throws {
    final class Outcome: @unchecked Sendable { var error: (any Error)? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { try body() } catch { outcome.error = error }
        done.signal()
    }
    thread.start()
    done.wait()
    if let error = outcome.error { throw error }
}
