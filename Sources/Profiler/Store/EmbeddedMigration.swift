import ProfilerSupport

/// One numbered migration compiled into the binary from migrations/NNNN_name.sql.
package struct EmbeddedMigration: Sendable {
    package let version: Int
    package let name: String
    package let sql: String

    /// FNV-1a 64 of the SQL text, recorded when applied, so a migration file edited
    /// after it shipped is caught rather than silently diverging between databases.
    /// Computed once: every open verifies every applied migration's checksum.
    package let checksum: String

    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = Self.fnv1a(sql)
    }

    static func fnv1a(_ text: String) -> String { FNV1a.hex(text) }
}
