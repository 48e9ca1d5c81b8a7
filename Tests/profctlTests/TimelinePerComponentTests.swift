import Foundation
import Profiler
import Testing

/// A step taken once per component (lazy-container's build and release, for Label, then
/// Button, then ImageView) is a point of its own in the timeline view, the HTML page's
/// live-bytes data and the Chrome trace; one row per (strategy, step) kept only the last
/// component's (ImageView's 571 B per instance where Button's build held 912).
@Suite("Live bytes per component, strategy and step")
struct TimelinePerComponentTests {
    static let instances = 20

    func recorded() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["record", "lazy-container", "--instances", "\(Self.instances)", "--quiet"], in: folder.url)
        try #require(result.status == 0, "\(result.stderr)")
        return folder
    }

    @Test("the timeline view has every (component, strategy, step); the chart's data peaks at the largest live figure")
    func timeline() throws {
        let folder = try recorded()
        let db = try ProfileStore.openForReading(path: folder.url.appendingPathComponent("profile.sqlite").path)
        let rows = try db.rows("SELECT component, strategy, step, live_requested_bytes FROM timeline ORDER BY elapsed_ns")
        #expect(rows.count == 3 * 3 * 2)
        #expect(Set(rows.map { "\($0[0].string ?? "")/\($0[1].string ?? "")/\($0[2].string ?? "")" }).count == rows.count)
        // Button's lazily realized build: its 912 B per instance (864 + the 48-byte container).
        #expect(rows.contains { $0[0] == .text("Button") && $0[1] == .text("lazy-realized") && $0[2] == .text("build")
            && $0[3] == .integer(912 * Int64(Self.instances)) })
        let largest = try #require(try db.scalar("SELECT MAX(live_requested_bytes) FROM samples")?.double)
        let run = try RunQueries.resolve("latest", in: db)
        let points = try TimelineQuery.load(run, from: db)
        #expect(points.count == rows.count)
        #expect(points.map(\.liveBytes).max() == largest)
        #expect(points.contains { $0.step == "Button build" && $0.strategy == "lazy-realized" && $0.component == "Button" })
        // Every strategy has a point at every step, so the chart's lines line up.
        #expect(Set(Dictionary(grouping: points, by: \.strategy).values.map(\.count)) == [6])
    }

    @Test("the Chrome trace has a slice per component's step, and each lifecycle event lies in its own component's slice")
    func trace() throws {
        let folder = try recorded()
        let export = try ProfctlProcess.run(["export", "-o", "trace.json"], in: folder.url)
        try #require(export.status == 0, "\(export.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("trace.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == 3 * 3 * 2)
        #expect(Set(slices.compactMap { $0["name"] as? String }) == [
            "Label build", "Label release", "Button build", "Button release", "ImageView build", "ImageView release",
        ])
        func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }
        let lifecycle = events.filter { $0["ph"] as? String == "i" }
        #expect(lifecycle.count > 0)
        var misplaced = 0
        for event in lifecycle {
            let at = number(event["ts"]), tid = number(event["tid"])
            let component = (event["args"] as? [String: Any])?["component"] as? String
            // Events carry whole microseconds, slices three decimals: allow one microsecond,
            // and take the later slice where two touch (an event starts after the sample before it).
            let slice = slices.last { slice in
                number(slice["tid"]) == tid && number(slice["ts"]) - 1 <= at && at <= number(slice["ts"]) + number(slice["dur"])
            }
            if ((slice?["args"] as? [String: Any])?["component"] as? String) != component { misplaced += 1 }
        }
        #expect(misplaced == 0, "\(misplaced) of \(lifecycle.count) lifecycle events lie outside their component's slice")
    }
}
