/// Runs a scenario under a recorder: one run, `repeats` passes, then rollups.
public enum ScenarioRunner {
    /// Checks the options against the scenario first: nothing is written for options
    /// that do not validate.
    @discardableResult
    public static func record(_ scenario: any Scenario, database path: String, options: RecordOptions,
                              environment: RunEnvironment = .current(),
                              progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> RunSummary {
        let resolved = try scenario.resolve(options)
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        let recorder = try Recorder.start(database: path, run: scenario.description(for: resolved),
                                          environment: environment)
        do {
            for index in 0..<resolved.repeats {
                if resolved.repeats > 1 { progress("\(scenario.name): repeat \(index + 1) of \(resolved.repeats)") }
                try scenario.run(ScenarioContext(sink: recorder, repeatIndex: index, options: resolved, progress: progress))
            }
        } catch {
            recorder.abort(because: error)
            throw error
        }
        return try recorder.finish()
    }
}
