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

/// A plain class, no View: what a user's own model or controller object looks like.
private final class Note {
    var title = "groceries"
    var lines = [1, 2, 3, 4, 5, 6, 7, 8]
}

@Suite("ComponentComparison: one's own components under the standard strategies")
struct ComponentComparisonTests {
    /// The three components of lazy-container, built by the same factories.
    static let catalog = ComponentComparison(name: "catalog", summary: "lazy-container's components through the comparison API",
                                             components: [
                                                 .component("Label") { Label(text: "Hello, profctl") },
                                                 .component("Button") { Button(title: "Send") },
                                                 .component("ImageView") { ImageView(image: Image.sampleIcon) },
                                             ])

    /// Per (component, strategy) of one scenario's run: the rollup's figures. Usable bytes
    /// are left out: they follow the state of malloc's free lists, and differ between
    /// identical runs of lazy-container itself (Label lazy: 5792, 5712, 5760 usable bytes for
    /// 100 instances in three runs of one database; requested bytes are the same every time).
    struct Figures: Equatable {
        let instances, allocations, requested, minInstance, maxInstance, released: Int64
    }

    static func figures(_ scenario: String, in path: String) throws -> [String: Figures] {
        let db = try ProfileStore.openForReading(path: path)
        let rows = try db.rows("""
            SELECT x.component, x.strategy, x.instances, x.allocations, x.requested_bytes,
                   x.min_instance_requested, x.max_instance_requested, x.released_requested_bytes
            FROM rollups x JOIN runs r ON r.run_key = x.run_key WHERE r.scenario = ?
            """, [.text(scenario)])
        var result: [String: Figures] = [:]
        for row in rows {
            let n = row.dropFirst(2).map { $0.int64 ?? -1 }
            result["\(row[0].string ?? "?")/\(row[1].string ?? "?")"] =
                Figures(instances: n[0], allocations: n[1], requested: n[2], minInstance: n[3], maxInstance: n[4], released: n[5])
        }
        return result
    }

    @Test("each instance costs exactly what lazy-container measures for Label, Button and ImageView")
    func sameAsHandWritten() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(LazyContainerScenario(), database: temp.path, options: RecordOptions(instances: 100))
        try recordOnOwnThread(Self.catalog, database: temp.path, options: RecordOptions(instances: 100))
        let handWritten = try Self.figures("lazy-container", in: temp.path)
        let compared = try Self.figures("catalog", in: temp.path)
        #expect(handWritten.count == 9)
        #expect(compared.count == 12, "three components, four strategies")
        for (key, expected) in handWritten {
            #expect(compared[key] == expected, "\(key): the API measured \(String(describing: compared[key])), lazy-container \(expected)")
        }
        // The same in the analysts' view, to the cent.
        let db = try ProfileStore.openForReading(path: temp.path)
        let differing = try db.scalar("""
            SELECT count(*) FROM savings h JOIN savings c
              ON c.component = h.component AND c.strategy = h.strategy AND c.scenario = 'catalog'
            WHERE h.scenario = 'lazy-container' AND c.bytes_per_instance != h.bytes_per_instance
            """)?.int64
        #expect(differing == 0)
    }

    @Test("cached: the first instance of each configuration builds the component, the others share it for nothing")
    func cachedShares() throws {
        let temp = try TemporaryDatabase()
        try recordOnOwnThread(Self.catalog, database: temp.path,
                              options: RecordOptions(parameters: ["instances": .int(60), "configurations": .int(4)]))
        let figures = try Self.figures("catalog", in: temp.path)
        for component in ["Label", "Button", "ImageView"] {
            let eager = try #require(figures["\(component)/eager"])
            let cached = try #require(figures["\(component)/cached"])
            #expect(eager.minInstance == eager.maxInstance, "every eager instance costs the same")
            #expect(cached.requested == 4 * eager.maxInstance, "four configurations, each built once")
            #expect(cached.allocations == 4 * eager.allocations / 60)
            #expect(cached.minInstance == 0 && cached.maxInstance == eager.maxInstance)
            #expect(cached.instances == 60)
        }
        for (key, row) in figures {
            #expect(row.released == row.requested, "\(key): released under measurement")
        }
    }

    @Test("any class works: a plain class's lazy container is 48 bytes, realized it is the class plus 48")
    func plainClass() throws {
        let comparison = ComponentComparison(name: "notes", summary: "a plain class", components: [.component("Note") { Note() }])
        let temp = try TemporaryDatabase()
        let summary = try recordOnOwnThread(comparison, database: temp.path, options: RecordOptions(instances: 30))
        let figures = try Self.figures("notes", in: temp.path)
        let eager = try #require(figures["Note/eager"])
        let lazy = try #require(figures["Note/lazy"])
        let realized = try #require(figures["Note/lazy-realized"])
        #expect(eager.minInstance == eager.maxInstance && eager.maxInstance > 48)
        #expect(lazy.maxInstance == 48 && lazy.minInstance == 48)
        #expect(realized.maxInstance == eager.maxInstance + 48 && realized.minInstance == realized.maxInstance)
        for (key, row) in figures { #expect(row.released == row.requested, "\(key)") }
        // create + release per instance; lazy-realized adds realize and the component's release. No warm-up event.
        #expect(summary.events == 30 * (2 + 2 + 4 + 2))
    }

    @Test("any value works, with no wrapper: an [Int] of 100 costs its storage, 32 + 8 x 100 requested bytes; lazy-realized adds the container and a 24-byte box")
    func plainValue() throws {
        let comparison = ComponentComparison(name: "numbers", summary: "a value, no class", components: [
            .component("Numbers") { [Int](repeating: 7, count: 100) },
        ])
        let temp = try TemporaryDatabase()
        let summary = try recordOnOwnThread(comparison, database: temp.path,
                                            options: RecordOptions(parameters: ["instances": .int(30), "configurations": .int(3)]))
        let figures = try Self.figures("numbers", in: temp.path)
        // The array's storage object: 16 bytes of object header, count and capacity (16), then 100 Ints.
        let storage: Int64 = 16 + 16 + 8 * 100
        let eager = try #require(figures["Numbers/eager"])
        #expect(eager.minInstance == storage && eager.maxInstance == storage, "\(eager)")
        #expect(eager.allocations == 30 && eager.requested == 30 * storage)
        let lazy = try #require(figures["Numbers/lazy"])
        #expect(lazy.minInstance == 48 && lazy.maxInstance == 48)
        // The container, the box that holds the array (header and one reference), the storage.
        let realized = try #require(figures["Numbers/lazy-realized"])
        #expect(realized.minInstance == 48 + 24 + storage && realized.maxInstance == realized.minInstance, "\(realized)")
        let cached = try #require(figures["Numbers/cached"])
        #expect(cached.requested == 3 * storage && cached.minInstance == 0 && cached.maxInstance == storage)
        for (key, row) in figures { #expect(row.released == row.requested, "\(key)") }
        #expect(summary.events == 30 * (2 + 2 + 4 + 2))
    }

    @Test("the savings report compares with eager; progress names each pass")
    func reportAndProgress() throws {
        let temp = try TemporaryDatabase()
        let lines = LineCollector()
        let path = temp.path
        _ = try onOwnThread {
            try ScenarioRunner.record(Self.catalog, database: path, options: RecordOptions(instances: 10),
                                      progress: { lines.append($0) })
        }
        let db = try ProfileStore.openForReading(path: temp.path)
        let report = try SavingsReport.load(run: "latest", measure: .requested, from: db)
        #expect(report.rows.count == 12)
        #expect(report.rows.allSatisfy { $0.baselineStrategy == "eager" })
        #expect(lines.all == ["Label", "Button", "ImageView"].flatMap { c in
            ["eager", "lazy", "lazy-realized", "cached"].map { "catalog: \(c) \($0): 10 instances" }
        })
    }

    @Test("an unknown strategy is refused with the valid ones; eager, the baseline, is always offered")
    func strategies() throws {
        #expect(throws: ScenarioError.unknownStrategy("sideways", scenario: "catalog",
                                                       known: ["eager", "lazy", "lazy-realized", "cached"])) {
            _ = try Self.catalog.resolve(RecordOptions(strategies: ["eager", "sideways"]))
        }
        let some = ComponentComparison(name: "some", summary: "", components: [], strategies: [.cached, .lazy])
        #expect(some.strategies == ["eager", "lazy", "cached"])
        #expect(Self.catalog.parameters.map(\.name) == ["instances", "configurations"])
        #expect(try Self.catalog.resolve(RecordOptions(instances: 7)).int("instances") == 7)
        #expect(try Self.catalog.resolve(RecordOptions()).int("instances") == 1000)
    }
}

extension ComponentComparisonTests {
    @Test("a comparison of no components, or of two with one name, is refused before anything is measured")
    func malformed() throws {
        let none = ComponentComparison(name: "none", summary: "", components: [])
        let twice = ComponentComparison(name: "twice", summary: "", components: [.component("Note") { Note() }, .component("Note") { Note() }])
        for (comparison, message) in [(none, "none compares no components"), (twice, "twice names two components 'Note'")] {
            let temp = try TemporaryDatabase()
            let error = #expect(throws: ScenarioError.self) {
                try recordOnOwnThread(comparison, database: temp.path, options: RecordOptions(instances: 3))
            }
            #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
            let db = try ProfileStore.openForReading(path: temp.path)
            #expect(try db.scalar("SELECT count(*) FROM events")?.int64 == 0)
        }
    }
}

/// Progress lines, appended from the recording thread.
private final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
