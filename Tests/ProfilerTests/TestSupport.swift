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
