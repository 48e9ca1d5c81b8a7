import CSQLite

/// The writer thread's work: drain the buffer into the events table, one transaction
/// per batch, one prepared statement for the whole run.
enum EventWriter {
    static let insertSQL = """
        INSERT INTO events (run_key, seq, repeat, subject_id, instance, kind_id,
                            allocations, frees, requested_bytes, usable_bytes, duration_ns)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func drain(_ buffer: EventBuffer, into path: String, runKey: Int64) {
        do {
            let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
            // Every key an event row carries was made by this writer or the recorder a
            // moment ago; checking three parents per insert would double the cost of ingest.
            try db.execute("PRAGMA foreign_keys = OFF")
            let insert = try db.prepare(insertSQL)
            var subjects = SubjectKeys(db: db)
            try insert.bind(.integer(runKey), at: 1)
            while true {
                let batch = buffer.popBatch(limit: Recorder.batchSize)
                if batch.isEmpty { break }
                try db.transaction {
                    for item in batch {
                        let subject = try subjects.key(component: item.event.component, strategy: item.event.strategy)
                        try write(item, subject: subject, with: insert)
                    }
                }
            }
        } catch {
            buffer.fail(error)
            // Keep draining so a waiting producer is released; its next push throws.
            while !buffer.popBatch(limit: Recorder.batchSize).isEmpty {}
        }
    }

    /// Binds columns 2...11; the run key in column 1 stays bound for the whole run.
    private static func write(_ item: SequencedEvent, subject: Int64, with insert: Statement) throws {
        let e = item.event
        try insert.bind(.integer(item.seq), at: 2)
        try insert.bind(.integer(Int64(e.repeatIndex)), at: 3)
        try insert.bind(.integer(subject), at: 4)
        try insert.bind(.integer(Int64(e.instance)), at: 5)
        try insert.bind(.integer(e.kind.code), at: 6)
        try insert.bind(.integer(Int64(e.allocations)), at: 7)
        try insert.bind(.integer(Int64(e.frees)), at: 8)
        try insert.bind(.integer(Int64(e.requestedBytes)), at: 9)
        try insert.bind(.integer(Int64(e.usableBytes)), at: 10)
        try insert.bind(.integer(Int64(clamping: e.durationNanoseconds)), at: 11)
        try insert.step()
        insert.reset()
    }
}

/// The subjects table's keys, looked up once per (component, strategy) per run.
struct SubjectKeys {
    let db: SQLiteConnection
    private var cache: [String: [String: Int64]] = [:]
    // Events come in long runs of one subject: comparing two small strings is cheaper than hashing them.
    private var last: (component: String, strategy: String, key: Int64)?

    init(db: SQLiteConnection) { self.db = db }

    mutating func key(component: String, strategy: String) throws -> Int64 {
        if let last, last.component == component, last.strategy == strategy { return last.key }
        let key = try lookUp(component: component, strategy: strategy)
        last = (component, strategy, key)
        return key
    }

    private mutating func lookUp(component: String, strategy: String) throws -> Int64 {
        if let known = cache[component]?[strategy] { return known }
        try db.run("INSERT INTO subjects (component, strategy) VALUES (?, ?) ON CONFLICT DO NOTHING",
                   [.text(component), .text(strategy)])
        guard let key = try db.scalar("SELECT subject_id FROM subjects WHERE component = ? AND strategy = ?",
                                      [.text(component), .text(strategy)])?.int64 else {
            throw SQLiteError(code: 1, message: "subject \(component)/\(strategy) was not stored")
        }
        cache[component, default: [:]][strategy] = key
        return key
    }
}
