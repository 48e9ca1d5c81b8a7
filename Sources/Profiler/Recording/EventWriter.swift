import CSQLite
import ProfilerStore

/// The writer thread's work: drain the buffer into the database, one transaction per
/// batch, the events of the whole run through one prepared statement of 64 rows (and a
/// one-row one for a batch's last few). It also numbers the
/// steps, names each series (run, repeat, step, subject, kind) once, keeps each
/// strategy's running live bytes for the samples, and keeps each series' running
/// figures for the rollups (`SeriesStats`).
struct EventWriter {
    /// The events' columns; a run that counts ARC traffic also stores `retains` and
    /// `releases` (else they stay NULL: not counted).
    static func columnNames(countsARC: Bool) -> [String] {
        ["series_id", "seq", "instance", "allocations", "frees", "requested_bytes", "usable_extra_bytes", "duration_ns", "at_us",
         "peak_requested_bytes"]
            + (countsARC ? ["retains", "releases"] : [])
    }

    static func insertSQL(countsARC: Bool, rows: Int) -> String {
        let names = columnNames(countsARC: countsARC)
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        return "INSERT INTO events (\(names.joined(separator: ", "))) VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))"
    }

    /// Rows per execution of the multi-row insert. Under callgrind one execution of a
    /// 64-row statement costs about half the instructions per row of 64 executions of the
    /// one-row statement (each execution opens a cursor, seeks from the b-tree's root and
    /// halts: 8,800 against 4,600 per row for events of one series, 9,100 against 7,600
    /// for two series taking turns); 16 rows gave most of it (5,000), 64 a little more.
    static let rowsPerInsert = 64

    let db: SQLiteConnection
    let runKey: Int64
    /// The run's start on the monotonic clock: events' at_us count from it.
    let runStart: UInt64
    /// Values per row: 10, or 12 with retains and releases.
    let columns: Int
    let countsARC: Bool
    let insert: Statement
    /// Prepared when the first `rowsPerInsert` rows are waiting (a short run never pays
    /// for compiling it).
    var insertMany: Statement?
    /// Rows not yet inserted, `columns` values each, in the order they came: inserted by
    /// `flush()` before the batch's transaction commits.
    var pending: [Int64] = []
    /// Whether a waiting row's series is below the one before it (so `groupBySeries` has
    /// rows to move).
    private var pendingOutOfOrder = false
    /// Scratch space for `groupBySeries`, kept between sets.
    private var seriesInSet: [Int64] = []
    private var grouped: [Int64] = []
    var subjects: SubjectKeys
    var series: SeriesKeys
    var steps: [String: Int64] = [:]
    var currentStep: Int64?
    /// Samples written so far: the next one's `point`.
    var samplesTaken: Int64 = 0
    /// Live bytes per strategy in the current repeat, and the highest requested figure
    /// reached: the running sums of its events' bytes.
    var live = LiveBytes()

    /// Writes everything the buffer delivers through `db` (the recorder's connection, which
    /// nothing else uses until this returns); returns the series' running figures (none
    /// after a failure, which the buffer then holds).
    static func drain(_ buffer: EventBuffer, into db: SQLiteConnection, runKey: Int64, runStart: UInt64,
                      countsARC: Bool) -> WrittenFigures {
        do {
            // Every key an event row carries was made by this writer or the recorder a
            // moment ago; checking parents per insert would double the cost of ingest.
            try db.execute("PRAGMA foreign_keys = OFF")
            defer { try? db.execute("PRAGMA foreign_keys = ON") }
            var writer = try EventWriter(db: db, runKey: runKey, runStart: runStart, countsARC: countsARC)
            while true {
                let chunks = buffer.popChunks(limit: Recorder.batchSize)
                if chunks.isEmpty { break }
                try db.transaction {
                    for chunk in chunks {
                        for item in chunk { try writer.write(item) }
                    }
                    try writer.flush()
                }
                buffer.recycle(consume chunks)
            }
            return writer.series.figures
        } catch {
            buffer.fail(error)
            // Keep draining so a waiting producer is released; its next push throws.
            while !buffer.popChunks(limit: Recorder.batchSize).isEmpty {}
            return WrittenFigures()
        }
    }

    init(db: SQLiteConnection, runKey: Int64, runStart: UInt64, countsARC: Bool) throws {
        self.db = db
        self.runKey = runKey
        self.runStart = runStart
        self.countsARC = countsARC
        self.columns = Self.columnNames(countsARC: countsARC).count
        self.insert = try db.prepare(Self.insertSQL(countsARC: countsARC, rows: 1))
        self.pending.reserveCapacity(Self.rowsPerInsert * columns)
        self.subjects = SubjectKeys(db: db)
        self.series = try SeriesKeys(db: db, runKey: runKey)
    }

    mutating func write(_ item: BufferedItem) throws {
        switch item {
        case .event(let seq, let event): try write(event, seq: seq)
        case .step(let name): currentStep = try stepKey(name)
        case .sample(let strategy, let component, let repeatIndex, let elapsed): try writeSample(strategy, component, repeatIndex, elapsed)
        case .metric(let name, let value, let strategy, let repeatIndex):
            let step = try currentStep ?? stepKey("run")
            currentStep = step
            try db.run("""
                INSERT INTO metrics (run_key, repeat, step, strategy, name, value) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET value = value + excluded.value
                """, [.integer(runKey), .init(repeatIndex), .integer(step), .text(strategy), .text(name), .real(value)])
        }
    }

    /// Steps are numbered in the order they first run; events before any step belong to "run".
    private mutating func stepKey(_ name: String) throws -> Int64 {
        if let known = steps[name] { return known }
        let key = Int64(steps.count)
        try db.run("INSERT INTO steps (run_key, step, name) VALUES (?, ?, ?)", [.integer(runKey), .integer(key), .text(name)])
        steps[name] = key
        return key
    }

    private mutating func write(_ e: Event, seq: Int64) throws {
        let step = try currentStep ?? stepKey("run")
        currentStep = step
        let (subject, strategyIndex) = try subjects.key(component: e.component, strategy: e.strategy)
        live.add(e, strategy: strategyIndex, repeatIndex: e.repeatIndex)
        let duration = Int64(clamping: e.durationNanoseconds)
        let seriesID = try series.record(e, seq: seq, step: step, subject: subject, duration: duration)

        if let previous = pending.count >= columns ? pending[pending.count - columns] : nil, seriesID < previous {
            pendingOutOfOrder = true
        }
        pending.append(seriesID)
        pending.append(seq)
        pending.append(Int64(e.instance))
        pending.append(Int64(e.allocations))
        pending.append(Int64(e.frees))
        pending.append(Int64(e.netLiveBytes))
        pending.append(Int64(e.netLiveUsableBytes) &- Int64(e.netLiveBytes))
        pending.append(duration)
        // Microseconds: a byte or two less per event than nanoseconds, and the trace's unit.
        pending.append(e.startNanoseconds > runStart ? Int64(clamping: (e.startNanoseconds - runStart) / 1000) : 0)
        pending.append(Int64(e.peakRequestedBytes))
        if countsARC {
            pending.append(Int64(e.retains))
            pending.append(Int64(e.releases))
        }
        if pending.count == Self.rowsPerInsert * columns { try flush() }
    }

    /// Inserts the waiting rows: a full set with one execution of the multi-row statement,
    /// fewer (the end of a batch) one row at a time, a series' rows together (in seq order
    /// within each series; see `groupBySeries`).
    mutating func flush() throws {
        groupBySeries()
        if pending.count == Self.rowsPerInsert * columns {
            let statement = try insertMany ?? db.prepare(Self.insertSQL(countsARC: countsARC, rows: Self.rowsPerInsert))
            insertMany = statement
            try bindAndStep(statement, values: 0..<pending.count)
        } else {
            for row in stride(from: 0, to: pending.count, by: columns) {
                try bindAndStep(insert, values: row..<(row + columns))
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingOutOfOrder = false
    }

    /// Reorders the waiting rows by series, keeping each series' rows in the order they came
    /// (seq order). A lazy container's create and realize rows alternate, and the rows of the
    /// lower series go into the middle of the table; inserted together, they cost less
    /// (callgrind, a C loop inserting 409,600 such rows 64 per statement, instructions per
    /// row: see BENCHMARKS.md, "Round 5"). The rows are stored by key, so the table holds the
    /// same rows whatever the order they are inserted in.
    private mutating func groupBySeries() {
        let rows = pending.count / columns
        // In the common case of long stretches of one series, or series one after the
        // other in ascending order, there is nothing to move.
        guard rows > 1, pendingOutOfOrder else { return }
        pendingOutOfOrder = false
        seriesInSet.removeAll(keepingCapacity: true)
        for row in 0..<rows where !seriesInSet.contains(pending[row * columns]) {
            seriesInSet.append(pending[row * columns])
        }
        seriesInSet.sort()
        grouped.removeAll(keepingCapacity: true)
        for series in seriesInSet {
            for row in 0..<rows where pending[row * columns] == series {
                grouped.append(contentsOf: pending[(row * columns)..<((row + 1) * columns)])
            }
        }
        swap(&pending, &grouped)
    }

    private func bindAndStep(_ statement: Statement, values: Range<Int>) throws {
        try pending.withUnsafeBufferPointer { try statement.bind(ints: UnsafeBufferPointer(rebasing: $0[values])) }
        try statement.step()
        statement.reset()
    }

    /// Every sample is a point of its own (numbered in the order taken): a step taken once
    /// per component (lazy-container's build, for Label, then Button, ...) keeps each
    /// component's figure, where one row per (repeat, strategy, step) kept only the last.
    private mutating func writeSample(_ strategy: String, _ component: String, _ repeatIndex: Int, _ elapsed: UInt64) throws {
        let step = try currentStep ?? stepKey("run")
        let now = live.figures(strategy: subjects.strategyIndex(named: strategy), repeatIndex: repeatIndex)
        samplesTaken += 1
        try db.run("""
            INSERT INTO samples (run_key, point, repeat, strategy, component, step, live_requested_bytes, live_usable_bytes,
                                 peak_requested_bytes, elapsed_ns)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(runKey), .integer(samplesTaken), .init(repeatIndex), .text(strategy), .text(component), .integer(step),
                  .integer(now.requested), .integer(now.usable), .integer(now.peak), .integer(Int64(clamping: elapsed))])
    }
}

/// The subjects table's keys, looked up once per (component, strategy) per run.
struct SubjectKeys {
    let db: SQLiteConnection
    private var cache: [String: [String: Int64]] = [:]
    private var strategyIndexes: [String: Int] = [:]
    private var subjectStrategy: [Int64: Int] = [:]
    // Events come in long runs of one subject: comparing two small strings is cheaper than hashing them.
    private var last: (component: String, strategy: String, key: Int64, strategyIndex: Int)?

    init(db: SQLiteConnection) { self.db = db }

    /// The subject's key and its strategy's index (for array-indexed running sums).
    mutating func key(component: String, strategy: String) throws -> (key: Int64, strategyIndex: Int) {
        if let last, last.component == component, last.strategy == strategy { return (last.key, last.strategyIndex) }
        let key = try lookUp(component: component, strategy: strategy)
        let index = subjectStrategy[key] ?? 0
        last = (component, strategy, key, index)
        return (key, index)
    }

    mutating func strategyIndex(named strategy: String) -> Int {
        if let known = strategyIndexes[strategy] { return known }
        let index = strategyIndexes.count
        strategyIndexes[strategy] = index
        return index
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
        subjectStrategy[key] = strategyIndex(named: strategy)
        return key
    }
}

/// Running live bytes per strategy within one repeat, with the peak reached.
struct LiveBytes {
    private var requested: [Int64] = []
    private var usable: [Int64] = []
    private var peak: [Int64] = []
    private var repeatIndex = 0

    mutating func add(_ event: Event, strategy: Int, repeatIndex: Int) {
        if repeatIndex != self.repeatIndex {
            self = LiveBytes()
            self.repeatIndex = repeatIndex
        }
        grow(to: strategy)
        requested[strategy] += Int64(event.netLiveBytes)
        usable[strategy] += Int64(event.netLiveUsableBytes)
        peak[strategy] = max(peak[strategy], requested[strategy])
    }

    mutating func figures(strategy: Int, repeatIndex: Int) -> (requested: Int64, usable: Int64, peak: Int64) {
        guard repeatIndex == self.repeatIndex, strategy < requested.count else { return (0, 0, 0) }
        return (requested[strategy], usable[strategy], peak[strategy])
    }

    private mutating func grow(to index: Int) {
        while requested.count <= index {
            requested.append(0)
            usable.append(0)
            peak.append(0)
        }
    }
}
