import Foundation
import Testing

/// report and export without --run show each scenario's newest complete run; when a
/// scenario's newest run is aborted, stderr says so instead of passing over it silently.
@Suite("report says which newest runs it passed over")
struct PassedOverRunsProcessTests {
    func run(_ arguments: [String], in folder: URL) throws -> ProfctlProcess.Result {
        let result = try ProfctlProcess.run(arguments, in: folder)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test("an aborted newest run: the older complete run is shown with a note; a scenario with no complete run is named")
    func abortedNewest() throws {
        let temporary = try TemporaryFolder()  // kept alive: its deinit removes the folder
        let folder = temporary.url
        _ = try run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder)
        let complete = try run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder).stdout
        _ = try run(["record", "lazy-container", "--instances", "5", "--quiet"], in: folder)
        _ = try run(["record", "lazy-list", "--quiet"], in: folder)
        let sql = "UPDATE runs SET status = 'aborted' WHERE started_at = (SELECT max(started_at) FROM runs x WHERE x.scenario = runs.scenario)"
        _ = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), ["profile.sqlite", sql], in: folder)
        let shownID = complete.trimmingCharacters(in: .whitespacesAndNewlines).prefix(8)

        for command in [["report"], ["export", "-o", "trace.json"]] {
            let result = try run(command, in: folder)
            #expect(result.stderr.contains("lazy-container's newest run"), "\(result.stderr)")
            #expect(result.stderr.contains("is aborted; showing its newest complete run \(shownID) instead"), "\(result.stderr)")
            #expect(result.stderr.contains("lazy-list's newest run"), "\(result.stderr)")
            #expect(result.stderr.contains("is aborted; it has no complete run to show"), "\(result.stderr)")
        }
        let quiet = try run(["report", "--run", String(shownID)], in: folder)
        #expect(!quiet.stderr.contains("newest run"), "--run names the run: nothing is passed over: \(quiet.stderr)")
    }
}
