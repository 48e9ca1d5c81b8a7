import Foundation
import Testing
import ProfilerModel
import ProfilerRecording
import ProfilerStore

/// The writer inserts each set of 64 rows a series at a time (a lazy container's create and
/// realize rows alternate); every event must still be stored once, with its own figures.
@Suite("Event writer: rows grouped by series")
struct EventWriterOrderTests {
    @Test("alternating, interleaved and out-of-order series over full and partial sets: every event stored as recorded")
    func everyEventStored() throws {
        let temp = try TemporaryDatabase()
        let recorder = try Recorder.start(database: temp.path,
                                          run: RunDescription(scenario: "order", baselineStrategy: "a", parameters: [:]))
        var recorded: [[SQLValue]] = []
        func record(_ kind: EventKind, _ component: String, _ instance: Int) throws {
            let seq = recorded.count
            let event = Event(kind: kind, component: component, strategy: "a", repeatIndex: 0, instance: instance,
                              allocations: seq % 5, frees: seq % 3, netLiveBytes: 100 + seq, netLiveUsableBytes: 108 + seq,
                              durationNanoseconds: UInt64(50 + seq))
            try recorder.record(event)
            recorded.append([.integer(Int64(seq)), .text(component), .text(kind.rawValue), .integer(Int64(instance)),
                             .integer(Int64(seq % 5)), .integer(Int64(seq % 3)), .integer(Int64(100 + seq)),
                             .integer(Int64(108 + seq)), .integer(Int64(50 + seq))])
        }
        // Create and realize alternating (two series), over several 64-row sets and a partial one.
        for i in 0..<100 {
            try record(.create, "A", i)
            try record(.realize, "A", i)
        }
        // Three series taking turns, the newest (highest key) first.
        for i in 0..<50 {
            try record(.create, "C", i)
            try record(.create, "B", i)
            try record(.release, "A", i)
        }
        // One series again, then the first two once more (series seen before).
        for i in 0..<70 { try record(.hit, "B", i) }
        for i in 100..<110 {
            try record(.create, "A", i)
            try record(.realize, "A", i)
        }
        try recorder.finish()

        let db = try ProfileStore.openForReading(path: temp.path)
        let statement = try db.prepare("""
            SELECT seq, component, kind, instance, allocations, frees, requested_bytes, usable_bytes, duration_ns
            FROM event_log WHERE run_id = ? ORDER BY seq
            """)
        try statement.bind([.text(recorder.runID)])
        var stored: [[SQLValue]] = []
        while try statement.step() { stored.append((0..<9).map { statement.value(at: Int32($0)) }) }
        #expect(stored.count == recorded.count)
        #expect(stored == recorded)
    }
}
