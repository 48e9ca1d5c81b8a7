import Foundation

/// docs/schema.md's example queries, extracted in one place for the tests that run them:
/// on a SQLite file (SchemaDocTests) and on a PostgreSQL store (PostgresReadingTests).
public enum SchemaDocExamples {
    /// docs/schema.md in this package's checkout.
    public static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/schema.md")

    /// The statements of every ```sql block, without their `--` comment lines. Examples of
    /// what only the SQLite file holds say so in a comment, `-- (file only: ...)` (docs/fleet.md
    /// lists them): left out unless `includingFileOnly`.
    public static func queries(includingFileOnly: Bool) throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var queries: [String] = []
        for block in text.components(separatedBy: "```sql\n").dropFirst() {
            guard let body = block.components(separatedBy: "```").first else { continue }
            queries += body.components(separatedBy: ";\n")
                .filter { includingFileOnly || !$0.contains("-- (file only:") }
                .map { $0.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n") }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
        }
        return queries
    }
}
