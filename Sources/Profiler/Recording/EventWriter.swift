import CSQLite

/// The writer thread's work: drain the buffer into the events table, one transaction
/// per batch, one prepared statement for the whole run.
enum EventWriter {
    static let insertSQL = """
        INSERT INTO events (run_id, seq, repeat, component, strategy, instance, kind,
                            allocations, frees, requested_bytes, usable_bytes, duration_ns)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func drain(_ buffer: EventBuffer, into path: String, runID: String) {
        do {
            let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
            let insert = try db.prepare(insertSQL)
            try insert.bind(.text(runID), at: 1)
            while true {
                let batch = buffer.popBatch(limit: Recorder.batchSize)
                if batch.isEmpty { break }
                try db.transaction {
                    for item in batch { try write(item, with: insert) }
                }
            }
        } catch {
            buffer.fail(error)
            // Keep draining so a waiting producer is released; its next push throws.
            while !buffer.popBatch(limit: Recorder.batchSize).isEmpty {}
        }
    }

    /// Binds columns 2...12; the run id in column 1 stays bound for the whole run.
    private static func write(_ item: SequencedEvent, with insert: Statement) throws {
        let e = item.event
        try insert.bind(.integer(item.seq), at: 2)
        try insert.bind(.integer(Int64(e.repeatIndex)), at: 3)
        try insert.bind(.text(e.component), at: 4)
        try insert.bind(.text(e.strategy), at: 5)
        try insert.bind(.integer(Int64(e.instance)), at: 6)
        try insert.bind(.text(e.kind.rawValue), at: 7)
        try insert.bind(.integer(Int64(e.allocations)), at: 8)
        try insert.bind(.integer(Int64(e.frees)), at: 9)
        try insert.bind(.integer(Int64(e.requestedBytes)), at: 10)
        try insert.bind(.integer(Int64(e.usableBytes)), at: 11)
        try insert.bind(.integer(Int64(clamping: e.durationNanoseconds)), at: 12)
        try insert.step()
        insert.reset()
    }
}
