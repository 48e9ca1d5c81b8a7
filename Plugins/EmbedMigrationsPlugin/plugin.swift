import Foundation
import PackagePlugin

/// Compiles the package's top-level migrations/*.sql into the target as Swift source,
/// so the schema's only source stays the .sql files and a copied binary needs no files.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "migrations")
        let files = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files + [folder],
                outputFiles: [output]
            ),
        ]
    }
}
