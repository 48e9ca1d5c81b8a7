import ProfilerModel
import ProfilerStore
import ProfilerSupport

/// Writes a finished run's rollups (rollups, step_rollups, latency_rollups) from the
/// figures the writer kept per series, reading the events back only where the figures
/// cannot answer, and then in the order they are stored (by series), never sorting the
/// run's events:
///
/// - sums, counts and first seqs come from the series' figures;
/// - a nearest-rank median or p90 is located in the series' duration histograms: below
///   4,096 ns a bucket is one duration; above, it is found among the few durations read
///   back from that one bucket;
/// - the bytes each instance holds come from the writer when each instance's create and
///   realize events came together, instances one way (`HeldInstances`); else they are
///   summed by merging its subject's series, each read in instance order (a series whose
///   instances never go down, or never up, is read by seq forwards or backwards, an
///   instance's consecutive events together); a subject with a series that comes back to
///   an instance after another is grouped by SQL instead.
///
/// The results are exactly what the GROUP BY queries over all events gave
/// (`RollupReference`, used by the tests, holds those queries).
struct RunRollups {
    let db: SQLiteConnection
    let runKey: Int64
    let series: [SeriesStats]
    /// Per subject and repeat, its create and realize events folded by instance by the writer.
    let held: [HeldKey: HeldInstances]
    let severalRepeats: Bool
    /// Whether the run counted retains and releases: else its rollups store NULL ("not
    /// counted"), never 0.
    let countsARC: Bool

    /// Retains and releases summed over `series`, or NULL when the run did not count them.
    /// Sums need no instance: each instance's share is in exactly one series.
    private func arcTotals(_ series: some Sequence<SeriesStats>) -> [SQLValue] {
        guard countsARC else { return [.null, .null] }
        var retains: Int64 = 0, releases: Int64 = 0
        for s in series {
            retains &+= s.retains
            releases &+= s.releases
        }
        return [.integer(retains), .integer(releases)]
    }

    /// Peaks summed over `series`: each event's highest live requested bytes (every run
    /// since schema version 18 measures them).
    private func peakTotal(_ series: some Sequence<SeriesStats>) -> SQLValue {
        .integer(series.reduce(0) { $0 &+ $1.peak })
    }

    func write() throws {
        try writeSubjectRollups()
        try writeStepRollups()
        if severalRepeats { try writeLatencyRollups() }
    }

    // MARK: step_rollups and latency_rollups

    private struct GroupKey: Hashable {
        let step: Int64
        let subject: Int64
        let kind: Int64
    }

    private func writeStepRollups() throws {
        var order: [GroupKey] = []
        var groups: [GroupKey: [SeriesStats]] = [:]
        for s in series {
            let key = GroupKey(step: s.step, subject: s.subject, kind: s.kind)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(s)
        }
        let insert = try db.prepare("""
            INSERT INTO step_rollups (run_key, step, component, strategy, kind, events, instances,
                                      requested_bytes, usable_bytes, duration_ns_total,
                                      duration_ns_median, duration_ns_p90, first_seq, retains, releases)
            SELECT ?1, ?2, s.component, s.strategy, k.name, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
            FROM subjects s, event_kinds k WHERE s.subject_id = ?3 AND k.kind_id = ?4
            """)
        for key in order {
            let members = groups[key] ?? []
            var histogram = DurationHistogram()
            for s in members { histogram.merge(s.durations) }
            let count = members.reduce(0) { $0 + $1.events }
            var instances = 0
            for s in members { instances += try distinctInstances(s) }
            let ranks = try durations(at: [NearestRank.median(of: count), NearestRank.p90(of: count)],
                                      histogram: histogram, series: members)
            try insert.run([
                .integer(runKey), .integer(key.step), .integer(key.subject), .integer(key.kind),
                .init(count), .init(instances),
                .integer(members.reduce(0) { $0 &+ $1.requested }), .integer(members.reduce(0) { $0 &+ $1.usable }),
                .integer(members.reduce(0) { $0 &+ $1.durationTotal }),
                .integer(ranks[0]), .integer(ranks[1]),
                .integer(members.map(\.firstSeq).min() ?? 0),
            ] + arcTotals(members))
        }
    }

    /// Per series of create and realize events (one repeat each): the median duration.
    private func writeLatencyRollups() throws {
        let insert = try db.prepare("""
            INSERT INTO latency_rollups (run_key, step, component, strategy, kind, repeat, events, duration_ns_median)
            SELECT ?1, ?2, s.component, s.strategy, k.name, ?5, ?6, ?7
            FROM subjects s, event_kinds k WHERE s.subject_id = ?3 AND k.kind_id = ?4
            """)
        for s in series where s.kind == EventKind.create.code || s.kind == EventKind.realize.code {
            let median = try durations(at: [NearestRank.median(of: s.events)], histogram: s.durations, series: [s])
            try insert.run([.integer(runKey), .integer(s.step), .integer(s.subject), .integer(s.kind),
                            .init(s.repeatIndex), .init(s.events), .integer(median[0])])
        }
    }

    /// Distinct instances of one series: counted by the writer when the instances only went
    /// one way (an instance's events then come together), else counted by SQL.
    private func distinctInstances(_ s: SeriesStats) throws -> Int {
        if s.ordered { return s.distinct }
        return Int(try db.scalar("SELECT count(DISTINCT instance) FROM events WHERE series_id = ?",
                                 [.integer(s.seriesID)])?.int64 ?? 0)
    }

    /// The durations of the given 1-based ranks among all events of `series`: each rank's
    /// bucket is found in the histogram; a bucket one nanosecond wide is the answer, and for
    /// a wider one only that bucket's durations are read back and counted by value (a bucket
    /// holds at most a sixteenth of an octave of values, so memory stays small even when
    /// every event took the same time).
    private func durations(at ranks: [Int], histogram: DurationHistogram, series: [SeriesStats]) throws -> [Int64] {
        let located = ranks.map { histogram.locate(rank: $0) }
        var counts: [Int: [Int64: Int]] = [:]
        for place in located { if let place, !DurationHistogram.isExact(place.bucket) { counts[place.bucket] = [:] } }
        if !counts.isEmpty {
            let lowest = counts.keys.map { DurationHistogram.range(of: $0).lower }.min() ?? 0
            let highest = counts.keys.map { DurationHistogram.range(of: $0).upper }.max() ?? .max
            let read = try db.prepare("SELECT duration_ns FROM events WHERE series_id = ? AND duration_ns >= ? AND duration_ns < ?")
            for s in series {
                try read.bind([.integer(s.seriesID), .integer(lowest), .integer(highest)])
                while try read.step() {
                    let duration = read.value(at: 0).int64 ?? 0
                    let bucket = DurationHistogram.bucket(of: duration)
                    if counts[bucket] != nil { counts[bucket]?[duration, default: 0] += 1 }
                }
            }
        }
        return located.map { place in
            guard let place else { return 0 }
            if DurationHistogram.isExact(place.bucket) { return DurationHistogram.range(of: place.bucket).lower }
            guard let values = counts[place.bucket] else { return 0 }
            var seen = 0
            for value in values.keys.sorted() {
                seen += values[value] ?? 0
                if seen >= place.rankInBucket { return value }
            }
            return 0
        }
    }

    // MARK: rollups

    /// What one subject's instances hold, summed over repeats.
    private struct SubjectTotals {
        var firstSeq: Int64 = .max
        var created = 0
        var repeats = Set<Int>()
        var allocations: Int64 = 0
        var requested: Int64 = 0
        var usable: Int64 = 0
        var minRequested: Int64 = .max, maxRequested: Int64 = .min
        var minUsable: Int64 = .max, maxUsable: Int64 = .min
        var releasedRequested: Int64 = 0
        var releasedUsable: Int64 = 0

        /// Instances that each have exactly one event, the create event of series `s`.
        mutating func addCreated(_ s: SeriesStats) {
            created += s.events
            allocations &+= s.allocations
            requested &+= s.requested
            usable &+= s.usable
            minRequested = min(minRequested, s.minRequested); maxRequested = max(maxRequested, s.maxRequested)
            minUsable = min(minUsable, s.minUsable); maxUsable = max(maxUsable, s.maxUsable)
        }

        /// The instances of a covering create series, with the figures the writer folded by
        /// instance over `held` (that series and the realize series of the same instances).
        mutating func addHeld(_ held: [SeriesStats], instances: HeldInstances) {
            created += instances.instances
            for s in held {
                allocations &+= s.allocations
                requested &+= s.requested
                usable &+= s.usable
            }
            minRequested = min(minRequested, instances.minRequested); maxRequested = max(maxRequested, instances.maxRequested)
            minUsable = min(minUsable, instances.minUsable); maxUsable = max(maxUsable, instances.maxUsable)
        }

        mutating func add(_ i: InstanceFigures) {
            if i.created { created += 1 }
            allocations &+= i.allocations
            requested &+= i.requested
            usable &+= i.usable
            minRequested = min(minRequested, i.requested); maxRequested = max(maxRequested, i.requested)
            minUsable = min(minUsable, i.usable); maxUsable = max(maxUsable, i.usable)
            releasedRequested &+= i.releasedRequested
            releasedUsable &+= i.releasedUsable
        }
    }

    /// The create series of one subject and repeat when it holds each instance once and
    /// every other series of theirs holds only instances it has, in instance order: then
    /// each instance's figures are its create event's plus its realize events', if any.
    private static func coveringCreateSeries(_ series: [SeriesStats]) -> SeriesStats? {
        let creates = series.filter { $0.kind == EventKind.create.code }
        guard creates.count == 1, let created = creates.first, created.isContiguous else { return nil }
        for s in series where !(s.ordered && s.minInstance >= created.minInstance && s.maxInstance <= created.maxInstance) {
            return nil
        }
        return created
    }

    /// One instance in one repeat: what its create and realize events allocated and kept,
    /// and what its release events gave back.
    private struct InstanceFigures {
        var created = false
        var allocations: Int64 = 0
        var requested: Int64 = 0
        var usable: Int64 = 0
        var releasedRequested: Int64 = 0
        var releasedUsable: Int64 = 0

        mutating func add(kind: Int64, allocations a: Int64, requested r: Int64, usable u: Int64) {
            if kind == EventKind.create.code { created = true }
            if kind == EventKind.create.code || kind == EventKind.realize.code {
                allocations &+= a; requested &+= r; usable &+= u
            } else if kind == EventKind.release.code {
                releasedRequested &-= r; releasedUsable &-= u
            }
        }
    }

    private func writeSubjectRollups() throws {
        var subjectOrder: [Int64] = []
        var bySubject: [Int64: [SeriesStats]] = [:]
        for s in series {
            if bySubject[s.subject] == nil { subjectOrder.append(s.subject) }
            bySubject[s.subject, default: []].append(s)
        }
        var totals: [(subject: Int64, totals: SubjectTotals, arc: [SQLValue])] = []
        for subject in subjectOrder {
            let members = bySubject[subject] ?? []
            // Subjects never created (cache lookups, say) have no rollup row.
            guard members.contains(where: { $0.kind == EventKind.create.code }) else { continue }
            var t = SubjectTotals()
            t.firstSeq = members.map(\.firstSeq).min() ?? .max
            var byRepeat: [Int: [SeriesStats]] = [:]
            for s in members { byRepeat[s.repeatIndex, default: []].append(s) }
            for (repeatIndex, repeatSeries) in byRepeat {
                t.repeats.insert(repeatIndex)
                if let created = Self.coveringCreateSeries(repeatSeries) {
                    // Every instance has its one create event: release events need no
                    // pairing, and create events alone need no reading.
                    let held = repeatSeries.filter { $0.kind == EventKind.create.code || $0.kind == EventKind.realize.code }
                    for s in repeatSeries where s.kind == EventKind.release.code {
                        t.releasedRequested &-= s.requested
                        t.releasedUsable &-= s.usable
                    }
                    if held.count == 1 {
                        t.addCreated(created)
                    } else if let folded = self.held[HeldKey(subject: subject, repeatIndex: repeatIndex)], folded.valid,
                              folded.instances == created.events {
                        // The writer saw each instance's events together: no reading back.
                        t.addHeld(held, instances: folded)
                    } else {
                        try mergeInstances(of: held) { t.add($0) }
                    }
                } else if repeatSeries.allSatisfy(\.ordered) {
                    try mergeInstances(of: repeatSeries) { t.add($0) }
                } else {
                    try groupInstances(subject: subject, repeatIndex: repeatIndex) { t.add($0) }
                }
            }
            guard t.created > 0 else { continue }
            // As allocations: what the instances' create and realize events made.
            let built = members.lazy.filter { $0.kind == EventKind.create.code || $0.kind == EventKind.realize.code }
            totals.append((subject, t, arcTotals(built) + [peakTotal(built)]))
        }
        totals.sort { $0.totals.firstSeq < $1.totals.firstSeq }
        let insert = try db.prepare("""
            INSERT INTO rollups (run_key, component, strategy, ordinal, instances, repeats, allocations,
                                 requested_bytes, usable_bytes,
                                 min_instance_requested, max_instance_requested,
                                 min_instance_usable, max_instance_usable,
                                 released_requested_bytes, released_usable_bytes, retains, releases, peak_requested_bytes)
            SELECT ?1, component, strategy, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17
            FROM subjects WHERE subject_id = ?2
            """)
        for (ordinal, entry) in totals.enumerated() {
            let t = entry.totals
            try insert.run([
                .integer(runKey), .integer(entry.subject), .init(ordinal + 1), .init(t.created / t.repeats.count),
                .init(t.repeats.count), .integer(t.allocations), .integer(t.requested), .integer(t.usable),
                .integer(t.minRequested), .integer(t.maxRequested), .integer(t.minUsable), .integer(t.maxUsable),
                .integer(t.releasedRequested), .integer(t.releasedUsable),
            ] + entry.arc)
        }
    }

    /// Reads the series of one subject and repeat side by side in instance order and hands
    /// over each instance's figures: a merge, with one open cursor per series.
    private func mergeInstances(of series: [SeriesStats], _ body: (InstanceFigures) -> Void) throws {
        struct Cursor {
            let statement: Statement
            let kind: Int64
            var instance: Int64?
        }
        var cursors: [Cursor] = []
        for s in series {
            let order = s.direction < 0 ? "DESC" : "ASC"
            let statement = try db.prepare("""
                SELECT instance, allocations, requested_bytes, requested_bytes + usable_extra_bytes FROM events WHERE series_id = ? ORDER BY seq \(order)
                """)
            try statement.bind([.integer(s.seriesID)])
            let instance: Int64? = try statement.step() ? statement.value(at: 0).int64 : nil
            cursors.append(Cursor(statement: statement, kind: s.kind, instance: instance))
        }
        while true {
            var lowest: Int64?
            for cursor in cursors { if let i = cursor.instance, i < lowest ?? .max { lowest = i } }
            guard let next = lowest else { break }
            var figures = InstanceFigures()
            for index in cursors.indices {
                let statement = cursors[index].statement
                // An ordered series may hold several events of one instance, one after the other.
                while cursors[index].instance == next {
                    figures.add(kind: cursors[index].kind, allocations: statement.value(at: 1).int64 ?? 0,
                                requested: statement.value(at: 2).int64 ?? 0, usable: statement.value(at: 3).int64 ?? 0)
                    cursors[index].instance = try statement.step() ? statement.value(at: 0).int64 : nil
                }
            }
            body(figures)
        }
    }

    /// The same figures by a GROUP BY, for a subject whose series revisit instances.
    private func groupInstances(subject: Int64, repeatIndex: Int, _ body: (InstanceFigures) -> Void) throws {
        let statement = try db.prepare("""
            SELECT MAX(x.kind_id = ?4),
                   SUM(CASE WHEN x.kind_id IN (?4, ?5) THEN e.allocations ELSE 0 END),
                   SUM(CASE WHEN x.kind_id IN (?4, ?5) THEN e.requested_bytes ELSE 0 END),
                   SUM(CASE WHEN x.kind_id IN (?4, ?5) THEN e.requested_bytes + e.usable_extra_bytes ELSE 0 END),
                   SUM(CASE WHEN x.kind_id = ?6 THEN -e.requested_bytes ELSE 0 END),
                   SUM(CASE WHEN x.kind_id = ?6 THEN -(e.requested_bytes + e.usable_extra_bytes) ELSE 0 END)
            FROM event_series x JOIN events e ON e.series_id = x.series_id
            WHERE x.run_key = ?1 AND x.subject_id = ?2 AND x.repeat = ?3
            GROUP BY e.instance
            """)
        // The kinds' codes come from EventKind, their one source (QueryAndRecorderTests holds
        // the event_kinds table to them).
        try statement.bind([.integer(runKey), .integer(subject), .init(repeatIndex),
                            .integer(EventKind.create.code), .integer(EventKind.realize.code), .integer(EventKind.release.code)])
        while try statement.step() {
            body(InstanceFigures(created: statement.value(at: 0).int64 == 1, allocations: statement.value(at: 1).int64 ?? 0,
                                 requested: statement.value(at: 2).int64 ?? 0, usable: statement.value(at: 3).int64 ?? 0,
                                 releasedRequested: statement.value(at: 4).int64 ?? 0,
                                 releasedUsable: statement.value(at: 5).int64 ?? 0))
        }
    }
}
