// The measuring API users import: every layer of the data path, re-exported, apart from
// the stand-in UIKit catalog (ProfilerCatalog), which only the built-in scenarios measure.
// docs/api.md, "Layers", says what each module may depend on.
@_exported import ProfilerChecks
@_exported import ProfilerComparison
@_exported import ProfilerHooks
@_exported import ProfilerModel
@_exported import ProfilerOutputs
@_exported import ProfilerPrimitives
@_exported import ProfilerQueries
@_exported import ProfilerRecording
@_exported import ProfilerScenarios
@_exported import ProfilerSites
@_exported import ProfilerStore
@_exported import ProfilerSupport
