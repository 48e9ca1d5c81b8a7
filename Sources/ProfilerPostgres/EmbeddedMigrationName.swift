import Profiler

/// The generated EmbeddedPostgresMigrations.swift (from migrations/postgres/*.sql, by the
/// shared EmbedMigrations tool) names `EmbeddedMigration` without importing Profiler;
/// this makes the name resolve to Profiler's type inside this module.
package typealias EmbeddedMigration = Profiler.EmbeddedMigration
