import Foundation

/// A fresh database path in its own temporary folder, removed when released.
package final class TemporaryDatabase {
    package let folder: URL
    package let path: String

    package init(_ name: String = "profile.sqlite") throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("profctl-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent(name).path
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
