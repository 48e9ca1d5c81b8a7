import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// The recorder closes its connection when the run ends, not when the last reference to
/// it goes: its writer thread (or a progress display) may still hold it when the process
/// exits, and an unclosed connection leaves the run in `-wal`, never checkpointed.
@Suite("Recorder closes its database when the run ends")
struct RecorderCloseTests {
    func start(_ temp: TemporaryDatabase) throws -> Recorder {
        let recorder = try Recorder.start(database: temp.path, run: RunDescription(
            scenario: "close", baselineStrategy: "a", parameters: ["x": .int(1)]))
        try recorder.record(Event(kind: .create, component: "C", strategy: "a", repeatIndex: 0, instance: 0,
                                  allocations: 1, frees: 0, netLiveBytes: 10, netLiveUsableBytes: 16, durationNanoseconds: 5))
        return recorder
    }

    /// No `-wal`/`-shm` beside the database, and the run's status read from the main file alone.
    func statusInMainFileAlone(_ temp: TemporaryDatabase) throws -> String? {
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: temp.path + suffix), "\(suffix) left behind")
        }
        let copy = try TemporaryDatabase()
        try FileManager.default.copyItem(atPath: temp.path, toPath: copy.path)
        return try ProfileStore.openForReading(path: copy.path).scalar("SELECT status FROM runs")?.string
    }

    @Test("after finish(), with the recorder still referenced, the main file holds the complete run")
    func finishCloses() throws {
        let temp = try TemporaryDatabase()
        let recorder = try start(temp)
        try recorder.finish()
        let status = try statusInMainFileAlone(temp)
        withExtendedLifetime(recorder) {}  // still referenced while the files are checked
        #expect(status == "complete")
    }

    @Test("after abort(), with the recorder still referenced, the main file holds the aborted run")
    func abortCloses() throws {
        let temp = try TemporaryDatabase()
        let recorder = try start(temp)
        recorder.abort(because: RecorderError.notFinished)
        let status = try statusInMainFileAlone(temp)
        withExtendedLifetime(recorder) {}  // still referenced while the files are checked
        #expect(status == "aborted")
    }
}
