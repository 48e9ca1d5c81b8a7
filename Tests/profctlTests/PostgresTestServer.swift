import Foundation
import ProfilerPostgres
import Testing

/// A fresh database on the throwaway server that scripts/pg-test-cluster starts (CI's
/// .ci/run exports PROFCTL_TEST_PG). Without the variable a test cannot run: with CI=true
/// that is a recorded issue (the test fails); otherwise the test is cancelled, which the
/// summary shows as skipped, never as passed. Tests needing the server carry
/// `.enabled(if: TestEnvironment.postgres, ...)` so they are skipped before they start;
/// the cancellation is the backstop for one that forgot it.
final class PostgresTestDatabase {
    let url: String
    let name: String
    private let admin: String

    /// nil when no server is configured and `cancelling` is false (after the failure under
    /// CI, else a loud warning): for a test that runs other work without the server
    /// (DocumentedExamplesTests). With `cancelling`, the test ends there as skipped.
    static func make(_ test: String = #function, cancelling: Bool = true) throws -> PostgresTestDatabase? {
        let environment = ProcessInfo.processInfo.environment
        guard let admin = environment["PROFCTL_TEST_PG"], !admin.isEmpty else {
            let message = "PROFCTL_TEST_PG is not set: \(test) did NOT run against PostgreSQL. "
                + "Start a server with: eval \"$(scripts/pg-test-cluster start >/dev/null; scripts/pg-test-cluster env)\""
            if environment["CI"] == "true" {
                Issue.record(Comment(rawValue: message))
            } else if cancelling {
                try Test.cancel(Comment(rawValue: message))
            } else {
                FileHandle.standardError.write(Data("\n*** WARNING: \(message)\n\n".utf8))
            }
            return nil
        }
        return try PostgresTestDatabase(admin: admin)
    }

    private init(admin: String) throws {
        self.admin = admin
        name = "profctl_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let connection = try PostgresConnection(admin)
        try connection.execute("CREATE DATABASE \(name)")
        url = Self.url(admin, database: name)
    }

    /// The admin URL with its database path replaced.
    static func url(_ admin: String, database: String) -> String {
        guard var parts = URLComponents(string: admin) else { return admin }
        parts.path = "/" + database
        return parts.string ?? admin
    }

    func connect() throws -> PostgresConnection { try PostgresConnection(url) }

    deinit {
        if let connection = try? PostgresConnection(admin) {
            try? connection.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }
}
