import ArgumentParser
import Foundation
import Profiler

/// The options of `profctl record`, shared with users' own executables (ProfilerMain),
/// so both record the same way into the same database format.
package struct RecordArguments: ParsableArguments {
    package init() {}

    @OptionGroup package var database: DatabaseOptions

    @Option(name: .customLong("repeat"), help: "How many times each scenario runs within its run (default: 1, or the file's).")
    package var repeats: Int?

    @Option(help: ArgumentHelp(RecordArguments.instancesHelp))
    package var instances: Int?

    /// The scenarios the help describes: profctl's built-in ones, or a user's own program's
    /// (ProfilerMain sets them before parsing), so `--help` names the parameters its
    /// scenarios take, never another program's.
    nonisolated(unsafe) static var describedScenarios: [any Scenario] = BuiltInScenarios.all

    /// From the scenarios' count parameters, so a new scenario's count is named.
    static var instancesHelp: String {
        let names = describedScenarios.map(\.countParameter).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
        return "Sets the scenario's main count: \(list)."
    }

    /// An example from the scenarios' own parameters: the first that is not a count, with its default.
    static var setHelp: String {
        let example = describedScenarios.lazy.flatMap { scenario in
            scenario.parameters.filter { $0.name != scenario.countParameter }
        }.first
        guard let example else { return "Sets a parameter (repeatable); the scenarios here take none besides their count." }
        return "Sets a parameter, e.g. --set \(example.name)=\(example.defaultValue) (repeatable)."
    }

    @Option(name: .customLong("set"), help: ArgumentHelp(RecordArguments.setHelp, valueName: "name=value"))
    package var settings: [String] = []

    @Option(help: ArgumentHelp("Only these strategies, comma-separated.", valueName: "a,b"))
    package var strategies: String?

    @Flag(help: "Also capture the call stack of every allocation in a measured instance, stored as sites (see `profctl sites`).")
    package var sites = false

    @Flag(help: "Also attribute every Swift object allocated in a measured instance to its type, stored as types (see `profctl types`); turns ARC counting on.")
    package var types = false

    @Option(help: ArgumentHelp("Frames captured per stack with --sites (1...\(SiteCapture.maximumDepth), default \(SiteCapture.defaultDepth)).", valueName: "n"))
    package var siteDepth: Int?

    @Flag(name: .shortAndLong, help: "Nothing on stderr but errors (progress shows only on a terminal anyway).")
    package var quiet = false

    /// The flags checked on their own; `--repeat`, `--instances` and `--set` are checked once,
    /// by resolving them against each scenario (`plans`).
    package func validate() throws {
        if let siteDepth {
            guard sites else { throw ValidationError("--site-depth needs --sites") }
            guard (1...SiteCapture.maximumDepth).contains(siteDepth) else {
                throw ValidationError("--site-depth must be between 1 and \(SiteCapture.maximumDepth) (got \(siteDepth))")
            }
        }
    }

    /// Every named scenario (or scenario file, read once) with its options resolved against
    /// it, once: nothing is recorded unless everything is valid, and `record` runs the plans
    /// as they are. `lookUp` finds a scenario by name; `registry`: the scenarios a scenario
    /// file may name. Problems are ValidationErrors (exit 64) naming the flag or file.
    package func plans(for names: [String], lookUp: (String) throws -> any Scenario,
                      registry: [any Scenario] = BuiltInScenarios.all) throws -> [RecordPlan] {
        do {
            return try names.map { try plan(for: $0, lookUp: lookUp, registry: registry) }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    private func plan(for argument: String, lookUp: (String) throws -> any Scenario, registry: [any Scenario]) throws -> RecordPlan {
        var scenario: any Scenario
        var options: RecordOptions
        if argument.hasSuffix(".yaml") || argument.hasSuffix(".yml") || argument.contains("/") {
            let file = try ScenarioFile.load(path: argument, registry: registry)
            (scenario, options) = (file.scenario, file.options)
        } else {
            do {
                (scenario, options) = (try lookUp(argument), RecordOptions())
            } catch {
                // An existing file that is not named .yaml: "unknown scenario" would hide
                // that it was taken for a name.
                guard FileManager.default.fileExists(atPath: argument) else { throw error }
                throw ValidationError("\(argument) is a file, not a built-in scenario; a scenario file's name ends in .yaml or .yml "
                                      + "(docs/scenario-format.md): rename it, or give a scenario name (profctl scenarios)")
            }
        }
        // What to say when a value a flag set is not valid for the scenario (from `expected`, `got`).
        var flags: [String: (_ expected: String, _ got: String) -> String] = [:]
        if let repeats { options.repeats = repeats }
        if let instances {
            options.parameters[scenario.countParameter] = .int(instances)
            flags[scenario.countParameter] = { "--instances must be \($0) (got \($1))" }
        }
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let spec = scenario.parameters.first(where: { $0.name == parts[0] }) else {
                throw ValidationError("--set \(setting): \(scenario.name) takes name=value with a name among: "
                                      + scenario.parameters.map(\.name).joined(separator: ", "))
            }
            guard let value = spec.read(parts[1]) else {
                throw ValidationError("--set \(setting): \(spec.name) must be \(spec.validValues)")
            }
            options.parameters[spec.name] = value
            flags[spec.name] = { expected, _ in "--set \(setting): \(spec.name) must be \(expected)" }
        }
        if let strategies {
            options.strategies = strategies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            flags["strategies"] = { expected, _ in "--strategies '\(strategies)' names no strategy: give \(expected), comma-separated" }
        }
        do {
            return RecordPlan(scenario: scenario, resolved: try scenario.resolve(options), argument: argument)
        } catch ScenarioError.invalidValue(let name, let value, let expected) {
            // The library names the value; the flag that set it is profctl's to name.
            if name == "repeats", repeats != nil { throw ValidationError("--repeat must be \(expected) (got \(value))") }
            if let message = flags[name] { throw ValidationError(message(expected, value)) }
            throw ScenarioError.invalidValue(name, value: value, expected: expected)
        }
    }

    /// Records each plan as one run: the run id on stdout; on stderr, on a terminal, the
    /// scenario's progress lines and a progress bar (for runs longer than a second), and
    /// everywhere a summary line per run.
    /// Refuses, before recording any, a run name that would hold two kinds of scenario
    /// (the message points at the plans' command-line names or files).
    package func record(_ plans: [RecordPlan]) throws {
        // Checked against the database before anything is recorded, on the connection the
        // first run then records with (a second connection cost a second schema parse).
        let names = plans.map { ($0.resolved.runName, $0.scenario.name, $0.argument) }
        try RunNames.requireOneKindPerName(names)
        var opened: SQLiteConnection?
        if let first = plans.first {
            let connection = try ScenarioRunner.openForRecording(first.scenario, resolved: first.resolved, database: database.path)
            try RunNames.requireStoredKinds(names, in: connection, databasePath: database.path)
            opened = connection
        }
        let environment = RunEnvironment.current()
        // Progress only where someone watches: on a terminal. A pipe gets the summary lines.
        let showProgress = !quiet && isatty(STDERR_FILENO) != 0
        RecordInterruption.install(database: database.path)
        for (index, plan) in plans.enumerated() {
            let scenario = plan.scenario
            let started = AllocationScope.monotonicNanoseconds()
            let position = plans.count > 1 ? "[\(index + 1)/\(plans.count)] " : ""
            if sites { try SiteCapture.shared.start(depth: siteDepth ?? SiteCapture.defaultDepth) }
            if types { try TypeCapture.shared.start() }
            let summary: RunSummary
            do {
                // Resolved once, by plans; the runner takes the result as it is.
                // On a terminal: the bar, and the scenario's own lines above it.
                let display = showProgress ? TerminalProgress(prefix: position) : nil
                if let connection = opened {
                    opened = nil
                    summary = try ScenarioRunner.record(scenario, connection: connection, resolved: plan.resolved,
                                                        environment: environment, display: display,
                                                        progress: { display?.line($0) })
                } else {
                    summary = try ScenarioRunner.record(scenario, database: database.path, resolved: plan.resolved,
                                                        environment: environment, display: display,
                                                        progress: { display?.line($0) })
                }
            } catch {
                if sites { _ = SiteCapture.shared.stop() }
                if types { _ = TypeCapture.shared.stop() }
                throw error
            }
            if sites { try SiteWriter.write(SiteCapture.shared.stop(), runID: summary.runID, database: database.path) }
            if types { try TypeWriter.write(TypeCapture.shared.stop(), runID: summary.runID, database: database.path) }
            let seconds = Double(AllocationScope.monotonicNanoseconds() - started) / 1e9
            if !quiet {
                Console.message(position + ProgressBar.summary(scenario: plan.resolved.runName, runID: summary.runID,
                                                               events: summary.events, seconds: seconds, database: database.path))
            }
            Console.output(summary.runID + "\n")
        }
    }
}

/// A scenario with its options resolved against it: what `record` runs, checked once.
package struct RecordPlan: Sendable {
    package let scenario: any Scenario
    package let resolved: ResolvedOptions
    /// What the command line named: the scenario's name, or its scenario file.
    package let argument: String
}
