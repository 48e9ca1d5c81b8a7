import CBenchLoops
import Foundation
import Profiler

/// Events per second through the recorder against a plain C prepared-insert loop on the
/// same schema; the time the measuring thread spends handing one event over; bytes on disk.
struct Ingest {
    let events: Int
    let rounds: Int
    let folder: URL

    static let description = RunDescription(scenario: "bench", baselineStrategy: "eager", parameters: [:])
    static let event = Event(kind: .create, component: "Label", strategy: "lazy-realized", repeatIndex: 0, instance: 0,
                             allocations: 4, frees: 0, netLiveBytes: 705, netLiveUsableBytes: 720, durationNanoseconds: 1200)

    func freshDatabase() -> String { folder.appendingPathComponent("ingest-\(UUID().uuidString).sqlite").path }

    func plainC() throws -> Double {
        let path = freshDatabase()
        // The recorder makes the schema, the run and (with one event) the series the rows refer to.
        let recorder = try Recorder.start(database: path, run: Self.description)
        try recorder.record(Self.event)
        try recorder.finish()
        let series = try SQLiteConnection(path: path, mode: .readOnly).scalar("SELECT max(series_id) FROM event_series")?.int64 ?? 0
        let elapsed = bench_insert_events(path, series, Int64(events), Int32(Recorder.batchSize))
        guard elapsed > 0 else { throw SQLiteError(code: 1, message: "the C insert loop failed") }
        return Double(events) / (Double(elapsed) / 1e9)
    }

    /// (events/s up to the last event stored, per-event hand-over times in ns, bytes on disk per event)
    func recorder(timeHandOver: Bool) throws -> (rate: Double, handOver: [Double], bytesPerEvent: Double) {
        let path = freshDatabase()
        let recorder = try Recorder.start(database: path, run: Self.description)
        var handOver: [Double] = []
        if timeHandOver { handOver.reserveCapacity(events) }
        let start = AllocationScope.monotonicNanoseconds()
        var e = Self.event
        for i in 0..<events {
            e.instance = i % 1000
            e.repeatIndex = i / 1000
            if timeHandOver {
                let before = AllocationScope.monotonicNanoseconds()
                try recorder.record(e)
                handOver.append(Double(AllocationScope.monotonicNanoseconds() - before))
            } else {
                try recorder.record(e)
            }
        }
        try recorder.drain()
        let rate = Double(events) / (Double(AllocationScope.monotonicNanoseconds() - start) / 1e9)
        try recorder.finish()
        let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = (try db.scalar("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")?.double) ?? 0
        return (rate, handOver, bytes / Double(events))
    }

    func figures() throws -> [Figure] {
        let c = median(try (0..<rounds).map { _ in try plainC() })
        let runs = try (0..<rounds).map { _ in try recorder(timeHandOver: false) }
        let rate = median(runs.map(\.rate))
        let timed = try recorder(timeHandOver: true)
        return [
            Figure(section: "ingest", metric: "events recorded per second", baseline: "plain C insert loop", baselineValue: c,
                   value: rate, unit: "events/s", target: ">= 0.9x the C loop", met: rate >= 0.9 * c),
            Figure(section: "ingest", metric: "hand-over of one event, median", baseline: "-", baselineValue: nil,
                   value: median(timed.handOver), unit: "ns", target: nil, met: nil),
            Figure(section: "ingest", metric: "hand-over of one event, p99", baseline: "-", baselineValue: nil,
                   value: percentile(timed.handOver, 0.99), unit: "ns", target: "<= 1000 ns", met: percentile(timed.handOver, 0.99) <= 1000),
            Figure(section: "ingest", metric: "bytes on disk per event (\(events) events, with rollups)", baseline: "-", baselineValue: nil,
                   value: runs.map(\.bytesPerEvent).min() ?? 0, unit: "bytes", target: "<= 32", met: (runs.map(\.bytesPerEvent).min() ?? 99) <= 32),
        ]
    }
}
