import ProfilerSupport

/// One numbered migration compiled into the binary from migrations/NNNN_name.sql.
public struct EmbeddedMigration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String

    /// FNV-1a 64 of the SQL text, recorded when applied, so a migration file edited
    /// after it shipped is caught rather than silently diverging between databases.
    /// Computed once: every open verifies every applied migration's checksum.
    public let checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = Self.fnv1a(sql)
    }

    static func fnv1a(_ text: String) -> String { FNV1a.hex(text) }
}
