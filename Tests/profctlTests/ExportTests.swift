import Foundation
import Testing

@Suite("Chrome trace export")
struct ExportTests {
    @Test("the trace follows the trace-event format: one process per run, a track per strategy, a counter sample per step, an instant per event")
    func chromeTrace() throws {
        let folder = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "lazy-list", "identity", "--instances", "20", "--quiet"], in: folder.url)
        let export = try ProfctlProcess.run(["export", "--format", "chrome-trace", "-o", "trace.json"], in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("trace.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        var byPhase: [String: Int] = [:]
        for event in events {
            let phase = try #require(event["ph"] as? String)
            byPhase[phase, default: 0] += 1
            #expect(["M", "X", "C", "i"].contains(phase))
            #expect(event["pid"] is Int && event["name"] is String)
            if phase != "M" {
                let ts = try #require(event["ts"] as? Double)
                #expect(ts >= 0 && ts < 3_600_000_000, "ts is in microseconds since the run started")
            }
            if phase == "X" { #expect((event["dur"] as? Double).map { $0 >= 0 } == true) }
            if phase == "i" || phase == "X" { #expect(event["tid"] is Int) }
            if phase == "C" {
                let args = try #require(event["args"] as? [String: Any])
                #expect(args.values.allSatisfy { $0 is Int || $0 is Double })
            }
        }
        let processes = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "process_name" }
        #expect(processes.count == 2)
        let tracks = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
        #expect(tracks.count == 5 + 5)
        // As many counter samples as samples rows, as many instants as events rows.
        let counts = try ProfctlProcess.run(["query", "SELECT (SELECT count(*) FROM samples), (SELECT count(*) FROM events)", "--format", "csv"],
                                            in: folder.url).stdout.split(whereSeparator: \.isNewline).last?.split(separator: ",").map { Int($0) ?? -1 }
        #expect(counts == [byPhase["C"] ?? 0, byPhase["i"] ?? 0])
        #expect(byPhase["X"] == byPhase["C"])
        let instant = try #require(events.first { $0["ph"] as? String == "i" }?["args"] as? [String: Any])
        #expect(instant["component"] is String && instant["bytes"] is Int)
    }
}
