import Foundation
import PackagePlugin

/// Compiles migrations/postgres/*.sql (the PostgreSQL store's schema) into the target as
/// Swift source, with the same EmbedMigrations tool the SQLite schema uses.
@main
struct EmbedPostgresMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "migrations/postgres")
        let files = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPostgresMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) PostgreSQL migrations",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files + [folder],
                outputFiles: [output]
            ),
        ]
    }
}
