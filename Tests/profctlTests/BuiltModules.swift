import Foundation

/// The modules this build made, as a user's compiler sees them: the search paths that
/// `swiftc` and `swift-symbolgraph-extract` need to load `import Profiler` outside this
/// package. Nothing here passes `-package-name`, so only `public` declarations are
/// visible, exactly as in Examples/ or any other package that depends on profctl.
enum BuiltModules {
    /// The debug build folder, next to the test bundle.
    static let debug = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// `-I` and module-map arguments for the Swift modules and the C modules under them.
    static var searchArguments: [String] {
        let yams = debug.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("checkouts/Yams/Sources/CYaml/include/module.modulemap")
        var arguments = ["-I", debug.appendingPathComponent("Modules").path,
                         "-I", DocumentedExamplesTests.root.appendingPathComponent("Sources/CSQLite").path,
                         "-Xcc", "-fmodule-map-file=" + debug.appendingPathComponent("CAllocationHooks.build/module.modulemap").path]
        if FileManager.default.fileExists(atPath: yams.path) { arguments += ["-Xcc", "-fmodule-map-file=" + yams.path] }
        return arguments
    }

    /// Type-checks `files` as a user's program would (public declarations only).
    static func typecheck(_ files: [URL], in folder: URL) throws -> (ok: Bool, errors: String) {
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                            ["swiftc", "-typecheck"] + searchArguments + files.map(\.path), in: folder)
        return (result.status == 0, result.stderr)
    }
}
