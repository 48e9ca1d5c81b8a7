import Foundation
import Profiler
import ProfilerCLI

/// The team's PostgreSQL store as the commands see it. profctl-pg, the executable that
/// links libpq, provides it; profctl itself is built without the PostgreSQL client (README
/// command 1 stays as fast to build as before the store) and hands a command line that
/// needs the store to profctl-pg, found next to its own binary (docs/fleet.md).
package protocol SharedStore: Sendable {
    /// The store at `target` for reading: its schema checked, never created or migrated.
    func openForReading(_ target: String) throws -> any SQLRowSource
    /// The store at `target` for the commands that change labels (baseline set and rm).
    func openForWriting(_ target: String) throws -> any SQLWritableStore
    /// Analysts' SQL on the store: read-only transaction, statement timeout, row cap.
    func query(_ sql: String, target: String, limits: QueryLimits) throws -> QueryResult
    /// Copies the local file's runs into the store named by `target` (else PROFCTL_STORE,
    /// else libpq's PG* variables); `progress` hears one line per run. Returns the summary.
    func push(from path: String, to target: String?, includeIncomplete: Bool, progress: (String) -> Void) throws -> String
    /// The exit code and message for one of the store's errors; nil for any other error.
    func failure(for error: any Error) -> (code: Int32, message: String)?
}

/// The entry point of both executables: profctl passes nil (no PostgreSQL client),
/// profctl-pg its SharedStore.
package enum ProfctlEntry {
    package static func main(sharedStore: (any SharedStore)?) {
        SharedStoreLink.install(sharedStore)
        Profctl.main()
    }
}

/// The SharedStore of this process, set once by main before any command runs.
enum SharedStoreLink {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: (any SharedStore)?

    static func install(_ store: (any SharedStore)?) {
        lock.withLock { installed = store }
    }

    static var current: (any SharedStore)? { lock.withLock { installed } }

    /// The store's implementation; in profctl, which has none, this process is replaced by
    /// profctl-pg with the same arguments (the call does not return), or a
    /// PostgresClientMissing error says how to build it.
    static func require() throws -> any SharedStore {
        if let current { return current }
        try PostgresClient.execute()
    }
}

/// profctl-pg, next to this binary: the same commands with the PostgreSQL client linked in.
enum PostgresClient {
    static let executableName = "profctl-pg"

    /// Where profctl-pg must be: beside the running binary (symbolic links resolved).
    static var expectedPath: String {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent(executableName).path
    }

    /// Replaces this process with profctl-pg and the same arguments; throws only when it
    /// cannot (not built, or not executable).
    static func execute() throws -> Never {
        let path = expectedPath
        guard FileManager.default.isExecutableFile(atPath: path) else { throw PostgresClientMissing(path: path, reason: nil) }
        fflush(nil)  // every stream: nothing written so far may be lost by exec
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(path, pointers)
        let reason = String(cString: strerror(errno))
        for pointer in pointers { free(pointer) }
        throw PostgresClientMissing(path: path, reason: reason)
    }
}

/// profctl was built without the PostgreSQL client and profctl-pg is not beside it.
struct PostgresClientMissing: Error, CustomStringConvertible {
    let path: String
    let reason: String?

    var description: String {
        let problem = reason.map { "cannot run \(path): \($0)" } ?? "\(path) does not exist"
        return "this profctl is built without the PostgreSQL client; --store, push and PostgreSQL URLs need profctl-pg beside it, and "
            + "\(problem). Build it with: swift build -c release --product profctl-pg (the same configuration as profctl: "
            + "it lands in the same folder), then run this command again. Nothing was read or written."
    }
}
