import ProfilerStore

/// The running figures of one series (one run's events of one repeat, step, subject and
/// kind), kept by the writer as it writes them, so that the rollups at the end of a run
/// need no GROUP BY over the run's events (that sort made a 2.4M-event run spend most
/// of its time after the scenario had finished). Its size does not grow with events.
struct SeriesStats {
    let seriesID: Int64
    let repeatIndex: Int
    let step: Int64
    let subject: Int64
    let kind: Int64
    var events = 0
    var allocations: Int64 = 0
    var requested: Int64 = 0
    var usable: Int64 = 0
    var durationTotal: Int64 = 0
    /// Retains and releases summed (0 in a run that does not count them: its rollups store NULL).
    var retains: Int64 = 0
    var releases: Int64 = 0
    /// Its events' peaks summed (each event's highest live requested bytes).
    var peak: Int64 = 0
    var firstSeq: Int64
    var lastInstance: Int
    /// +1 while every event's instance is above (or equal to) the one before, -1 while below
    /// (or equal), 0 while every event had the first one's instance.
    var direction = 0
    /// Every instance so far strictly above (or strictly below) the one before: then each
    /// instance occurs once, and the series can be read in instance order by seq.
    var monotonic = true
    /// Every instance so far at or above (or at or below) the one before: the series can
    /// still be read in instance order by seq, an instance's events one after the other
    /// (a lazy container's two releases per instance, say).
    var ordered = true
    /// Distinct instances so far, while `ordered` (each change of instance is a new one).
    var distinct = 1
    var durations = DurationHistogram()
    /// Where this series' events are folded by instance with the other create and realize
    /// series of its subject and repeat (`SeriesKeys.held`), or -1 for other kinds.
    var heldIndex = -1
    var minInstance: Int, maxInstance: Int
    /// The smallest and largest figures of one event.
    var minRequested: Int64 = .max, maxRequested: Int64 = .min
    var minUsable: Int64 = .max, maxUsable: Int64 = .min

    /// Every instance in minInstance...maxInstance occurs exactly once.
    var isContiguous: Bool { monotonic && events == maxInstance - minInstance + 1 }

    init(seriesID: Int64, repeatIndex: Int, step: Int64, subject: Int64, kind: Int64, firstSeq: Int64, instance: Int) {
        self.seriesID = seriesID
        self.repeatIndex = repeatIndex
        self.step = step
        self.subject = subject
        self.kind = kind
        self.firstSeq = firstSeq
        self.lastInstance = instance
        self.minInstance = instance
        self.maxInstance = instance
    }

    mutating func add(_ e: Event, seq: Int64, duration: Int64) {
        if events > 0 && ordered {
            let step = e.instance > lastInstance ? 1 : e.instance < lastInstance ? -1 : 0
            if step == 0 {
                monotonic = false
            } else if direction != 0 && step != direction {
                monotonic = false
                ordered = false
            } else {
                direction = step
                distinct += 1
            }
        }
        lastInstance = e.instance
        minInstance = min(minInstance, e.instance)
        maxInstance = max(maxInstance, e.instance)
        events += 1
        allocations &+= Int64(e.allocations)
        let r = Int64(e.netLiveBytes), u = Int64(e.netLiveUsableBytes)
        requested &+= r
        usable &+= u
        minRequested = min(minRequested, r); maxRequested = max(maxRequested, r)
        minUsable = min(minUsable, u); maxUsable = max(maxUsable, u)
        durationTotal &+= duration
        retains &+= Int64(e.retains)
        releases &+= Int64(e.releases)
        peak &+= Int64(e.peakRequestedBytes)
        firstSeq = min(firstSeq, seq)
        durations.add(duration)
    }
}

/// Names each series once per run (a row in event_series) and keeps its figures.
struct SeriesKeys {
    struct Key: Hashable {
        let repeatIndex: Int
        let step: Int64
        let subject: Int64
        let kind: Int64
    }

    let db: SQLiteConnection
    let runKey: Int64
    private let insert: Statement
    private var indexes: [Key: Int] = [:]
    private(set) var stats: [SeriesStats] = []
    /// Per subject and repeat, its create and realize events folded by instance.
    private var heldIndexes: [HeldKey: Int] = [:]
    private var held: [HeldInstances] = []
    /// Events come in long stretches of one or two series (create, realize, create, ...).
    private var recent = RecentPair<Key, Int>()

    init(db: SQLiteConnection, runKey: Int64) throws {
        self.db = db
        self.runKey = runKey
        self.insert = try db.prepare("""
            INSERT INTO event_series (run_key, repeat, step, subject_id, kind_id) VALUES (?, ?, ?, ?, ?)
            RETURNING series_id
            """)
    }

    /// Adds the event to its series' figures; returns the series' key.
    mutating func record(_ e: Event, seq: Int64, step: Int64, subject: Int64, duration: Int64) throws -> Int64 {
        let key = Key(repeatIndex: e.repeatIndex, step: step, subject: subject, kind: e.kind.code)
        let index: Int
        if let known = recent.value(for: key) {
            index = known
        } else {
            index = try lookUp(key, seq: seq, instance: e.instance)
            recent.remember(key, index)
        }
        stats[index].add(e, seq: seq, duration: duration)
        let heldIndex = stats[index].heldIndex
        if heldIndex >= 0 {
            held[heldIndex].add(instance: e.instance, requested: Int64(e.netLiveBytes), usable: Int64(e.netLiveUsableBytes))
        }
        return stats[index].seriesID
    }

    /// What the writer kept: each series' figures, and each subject and repeat's instances.
    var figures: WrittenFigures {
        WrittenFigures(series: stats, held: heldIndexes.mapValues { held[$0].finished })
    }

    private mutating func lookUp(_ key: Key, seq: Int64, instance: Int) throws -> Int {
        if let known = indexes[key] { return known }
        try insert.bind([.integer(runKey), .init(key.repeatIndex), .integer(key.step), .integer(key.subject), .integer(key.kind)])
        guard try insert.step(), let id = insert.value(at: 0).int64 else {
            throw SQLiteError(code: 1, message: "the new event series of run \(runKey) could not be read back")
        }
        insert.reset()
        let index = stats.count
        var figures = SeriesStats(seriesID: id, repeatIndex: key.repeatIndex, step: key.step, subject: key.subject,
                                  kind: key.kind, firstSeq: seq, instance: instance)
        if key.kind == EventKind.create.code || key.kind == EventKind.realize.code {
            let heldKey = HeldKey(subject: key.subject, repeatIndex: key.repeatIndex)
            if let known = heldIndexes[heldKey] {
                figures.heldIndex = known
            } else {
                figures.heldIndex = held.count
                heldIndexes[heldKey] = held.count
                held.append(HeldInstances())
            }
        }
        stats.append(figures)
        indexes[key] = index
        return index
    }
}

/// One subject in one repeat.
struct HeldKey: Hashable {
    let subject: Int64
    let repeatIndex: Int
}

/// What the writer hands the rollups when it is done.
struct WrittenFigures {
    var series: [SeriesStats] = []
    /// Per subject and repeat, its create and realize events folded by instance.
    var held: [HeldKey: HeldInstances] = [:]
}
