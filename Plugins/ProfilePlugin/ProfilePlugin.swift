import Foundation
import PackagePlugin

/// `swift package profile`: records every executable of the user's package that runs
/// `ProfilerMain` into one database and prints the reports; `report` and `check` read it
/// with profctl. The plugin decides nothing itself: the executables record and profctl
/// reads and gates, so the figures and verdicts are the same as from the command line.
@main
struct ProfilePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let console = Console()
        let invocation: PluginInvocation
        do {
            invocation = try PluginInvocation(arguments)
        } catch let mistake as PluginUsageError {
            console.error(mistake.message)
            exit(PluginExit.usage)
        }
        if invocation.action == .help {
            console.out(PluginHelp.text)
            return
        }
        let folder = context.package.directoryURL
        let database = invocation.database(in: folder)
        let builder = ReleaseBuilder(packageManager: packageManager, console: console)

        switch invocation.action {
        case .record:
            let executables = try selectExecutables(context: context, invocation: invocation, console: console)
            let profctl = try await builder.build(product: "profctl")
            try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
            var runs: [String] = []
            for executable in executables {
                let binary = try await builder.build(product: executable)
                let recorded = ChildProcess(binary, ["--db", database.path] + invocation.passedOn, in: folder, console: console)
                runs += RunIdentifiers.in(try recorded.runCapturingOutput())
            }
            for run in runs {
                try ChildProcess(profctl, ["report", "--db", database.path, "--run", run], in: folder, console: console).run()
            }
        case .report, .check:
            let profctl = try await builder.build(product: "profctl")
            let command = invocation.action.rawValue
            try ChildProcess(profctl, [command, "--db", database.path] + invocation.passedOn, in: folder, console: console).run()
        case .help:
            break
        }
    }

    /// The executables to record: those that use ProfilerMain, or the ones `--executable` names.
    private func selectExecutables(context: PluginContext, invocation: PluginInvocation, console: Console) throws -> [String] {
        let found = ProfilingExecutables.in(context.package)
        guard !found.isEmpty else {
            console.error("""
                error: no executable of package '\(context.package.displayName)' depends on ProfilerCLI, so none runs ProfilerMain.
                Add one: an executableTarget depending on .product(name: "ProfilerCLI", package: "profctl") whose main.swift
                calls ProfilerMain.run(scenarios: [...]) (docs/api.md), and a product for it.
                """)
            exit(PluginExit.usage)
        }
        guard !invocation.executables.isEmpty else { return found }
        for name in invocation.executables where !found.contains(name) {
            console.error("""
                error: '\(name)' is not an executable of '\(context.package.displayName)' that runs ProfilerMain.
                Executables: \(found.joined(separator: ", "))
                """)
            exit(PluginExit.usage)
        }
        return invocation.executables
    }
}
