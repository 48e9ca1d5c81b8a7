import Foundation
import Testing

/// What a test needs from the machine beyond the build: a PostgreSQL server, root.
/// A test that needs one carries `.enabled(if: ...)` with these, so without the
/// environment it shows as *skipped* in the summary, never as passed. Under `CI=true` the
/// tests run whatever the machine has, and fail when what they need is missing: CI must
/// never skip them silently.
enum TestEnvironment {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// A server named by PROFCTL_TEST_PG (scripts/pg-test-cluster start), or CI.
    static let postgres = isCI || !(ProcessInfo.processInfo.environment["PROFCTL_TEST_PG"] ?? "").isEmpty

    static let postgresMissing: Comment =
        "needs a PostgreSQL server: eval \"$(scripts/pg-test-cluster start >/dev/null; scripts/pg-test-cluster env)\""

    /// Root (mounting a tmpfs), or CI.
    static let root = isCI || getuid() == 0

    static let rootMissing: Comment = "needs root (it mounts a small tmpfs)"
}
