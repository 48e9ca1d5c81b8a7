/// Runs a scenario under a recorder: one run, `repeats` passes, then rollups.
public enum ScenarioRunner {
    @discardableResult
    public static func record(_ scenario: any Scenario, database path: String, options: RecordOptions,
                              environment: RunEnvironment = .current(),
                              progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> RunSummary {
        guard AllocationHooks.isActive else { throw AllocationScopeError.hooksInactive }
        let recorder = try Recorder.start(database: path, run: scenario.description(for: options),
                                          environment: environment)
        do {
            for index in 0..<options.repeats {
                if options.repeats > 1 { progress("\(scenario.name): repeat \(index + 1) of \(options.repeats)") }
                try scenario.run(ScenarioContext(sink: recorder, repeatIndex: index, options: options, progress: progress))
            }
        } catch {
            recorder.abort(because: error)
            throw error
        }
        return try recorder.finish()
    }
}
