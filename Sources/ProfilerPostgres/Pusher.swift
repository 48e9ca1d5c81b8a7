import Foundation
import Profiler

/// Copies finished runs from a local SQLite file into the PostgreSQL store.
///
/// - Idempotent by run UUID: a run already in the store is skipped, so pushing twice adds
///   nothing, and concurrent pushers of the same run add it once (the unique run_id makes
///   the second wait for the first and then skip).
/// - One transaction per run: a run is visible with all its rows or not at all.
/// - Reads the local file's columns by name; events through the layout both stores share
///   (event_series and events, SQLite's version 4 and the store's version 2), series by
///   series. The local file is opened read-only and never changed.
package enum Pusher {
    package struct Outcome: Sendable, Equatable {
        package var runsAdded = 0
        package var runsAlreadyPresent = 0
        package var runsLeftOut = 0
        package var eventsCopied = 0
        package var baselinesAdded = 0
        /// Runs already in the store, pushed without their object types, that got them now.
        package var typesAdded = 0
        /// Report views the store refused to create (their runs are pushed all the same).
        package var viewsRefused: [PostgresReportViews.Refused] = []
        package var seconds = 0.0
    }

    /// The store's events columns, in the order push writes them.
    static let storeEventColumns = ["series_id", "seq", "instance", "allocations", "frees", "requested_bytes",
                                    "usable_extra_bytes", "duration_ns", "at_us", "retains", "releases", "peak_requested_bytes"]

    /// Pushes the runs of `local` (complete ones, or every one with `includeIncomplete`).
    /// `progress` hears one line per run.
    package static func push(from localPath: String, to target: String, includeIncomplete: Bool = false,
                            progress: (String) -> Void = { _ in }) throws -> Outcome {
        let started = Date()
        let local = try ProfileStore.openForReading(path: localPath, repairAbandoned: false)
        let store = try PostgresConnection(target)
        try store.execute("SET client_min_messages = warning")
        try PostgresMigrator().migrate(store)
        var outcome = Outcome()
        // The report views from the declarations, before the runs that read them.
        outcome.viewsRefused = try PostgresReportViews.install(PostgresReportViews.declared(by: local), in: store)
        let statusFilter = includeIncomplete ? "" : "WHERE status = 'complete'"
        let columns = RunTables.runColumns.joined(separator: ", ")
        let runs = try local.prepare("SELECT \(columns) FROM runs \(statusFilter) ORDER BY started_at, run_id")
        let runRows = try runs.rows()
        outcome.runsLeftOut = Int(try local.scalar("SELECT count(*) FROM runs")?.int64 ?? 0) - runRows.count
        let kinds = try kindIDs(store)
        do {
            for run in runRows {
                guard let runID = run[0].string else { continue }
                let added = try pushRun(run, runID: runID, local: local, store: store, kinds: kinds)
                if let events = added {
                    outcome.runsAdded += 1
                    outcome.eventsCopied += events
                    progress("\(runID): pushed (\(events) events)")
                } else {
                    outcome.runsAlreadyPresent += 1
                    if try addMissingObjectTypes(runID: runID, local: local, store: store, kinds: kinds) { outcome.typesAdded += 1 }
                }
            }
            outcome.baselinesAdded = try pushBaselines(local: local, store: store)
        } catch let error as PostgresError where outcome.runsAdded > 0 {
            // Runs are committed one by one: those before the failure are in the store.
            throw PushCutOff(cause: error, runsPushed: outcome.runsAdded)
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    static func kindIDs(_ store: PostgresConnection) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for row in try store.query("SELECT name, kind_id FROM event_kinds").rows {
            if let name = row[0].string, let id = row[1].int64 { result[name] = id }
        }
        return result
    }

    /// Copies one run in one transaction. Returns the events copied, or nil when the store
    /// already has the run.
    static func pushRun(_ run: [SQLValue], runID: String, local: SQLiteConnection, store: PostgresConnection,
                        kinds: [String: Int64]) throws -> Int? {
        if try store.scalar("SELECT 1 FROM runs WHERE run_id = $1", [.text(runID)]) != nil { return nil }
        let subjects = try subjectIDs(for: runID, local: local, store: store)
        let typeNames = try typeNameIDs(for: runID, local: local, store: store)
        return try store.transaction { () throws -> Int? in
            let placeholders = (1...RunTables.runColumns.count).map { "$\($0)" }.joined(separator: ", ")
            let inserted = try store.query(
                "INSERT INTO runs (\(RunTables.runColumns.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT (run_id) DO NOTHING RETURNING run_key",
                run)
            // Another pusher added it between the check and here: nothing to do.
            guard let runKey = inserted.rows.first?.first?.int64 else { return nil }
            for (table, columns) in RunTables.perRun {
                let list = columns.map { "x." + $0 }.joined(separator: ", ")
                let rows = try local.prepare("SELECT \(list) FROM \(table) x JOIN runs r ON r.run_key = x.run_key WHERE r.run_id = ?")
                try rows.bind([.text(runID)])
                try store.copy(into: table, columns: ["run_key"] + columns) { buffer in
                    while try rows.step() {
                        buffer.append(integer: runKey)
                        for value in rows.row() {
                            buffer.bytes.append(9)
                            buffer.append(value)
                        }
                        buffer.bytes.append(10)
                        if buffer.isFull { return true }
                    }
                    return false
                }
            }
            // Step numbers are the file's (steps is copied as it is), so a series keeps its step.
            let events = try copyEvents(runID: runID, runKey: runKey, local: local, store: store, subjects: subjects, kinds: kinds)
            _ = try copyObjectTypes(runID: runID, runKey: runKey, local: local, store: store, subjects: subjects, kinds: kinds,
                                    typeNames: typeNames)
            return events
        }
    }

    /// The store's subject ids for the run's (component, strategy) pairs, adding missing
    /// ones first in a short transaction of their own (in a fixed order, so concurrent
    /// pushers never deadlock on them; an unused subject is harmless).
    static func subjectIDs(for runID: String, local: SQLiteConnection, store: PostgresConnection) throws -> [String: Int64] {
        let pairs = try local.rows("""
            SELECT s.component, s.strategy FROM event_series x JOIN runs r ON r.run_key = x.run_key
            JOIN subjects s ON s.subject_id = x.subject_id WHERE r.run_id = ?1
            UNION
            SELECT s.component, s.strategy FROM object_types t JOIN runs r ON r.run_key = t.run_key
            JOIN subjects s ON s.subject_id = t.subject_id WHERE r.run_id = ?1
            ORDER BY 1, 2
            """, [.text(runID)]).compactMap { row -> (String, String)? in
            guard let component = row[0].string, let strategy = row[1].string else { return nil }
            return (component, strategy)
        }
        guard !pairs.isEmpty else { return [:] }
        let components = SQLValue.text(postgresArray(pairs.map(\.0)))
        let strategies = SQLValue.text(postgresArray(pairs.map(\.1)))
        _ = try store.query("""
            INSERT INTO subjects (component, strategy)
            SELECT c, s FROM unnest(CAST($1 AS text[]), CAST($2 AS text[])) AS x (c, s) ORDER BY c, s
            ON CONFLICT DO NOTHING
            """, [components, strategies])
        var result: [String: Int64] = [:]
        for row in try store.query("""
            SELECT x.component, x.strategy, x.subject_id FROM subjects x
            JOIN unnest(CAST($1 AS text[]), CAST($2 AS text[])) AS p (c, s) ON p.c = x.component AND p.s = x.strategy
            """, [components, strategies]).rows {
            if let c = row[0].string, let s = row[1].string, let id = row[2].int64 { result[c + "\u{0}" + s] = id }
        }
        return result
    }

    /// A text[] literal: {"a","b"} with quotes and backslashes escaped.
    static func postgresArray(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }

    /// Copies the run's events in the layout both stores share (SQLite's version 4, the
    /// store's version 2): its series first, named by component, strategy and kind so the
    /// store's own ids are used; then each series' events in seq order, series after series,
    /// so the store's rows lie in (series_id, seq) order as the file's do. Each series is a
    /// range of the local table's primary key: read without a sort.
    static func copyEvents(runID: String, runKey: Int64, local: SQLiteConnection, store: PostgresConnection,
                           subjects: [String: Int64], kinds: [String: Int64]) throws -> Int {
        let series = try local.rows("""
            SELECT x.series_id, x.repeat, x.step, s.component, s.strategy, k.name
            FROM event_series x JOIN runs r ON r.run_key = x.run_key
            JOIN subjects s ON s.subject_id = x.subject_id JOIN event_kinds k ON k.kind_id = x.kind_id
            WHERE r.run_id = ? ORDER BY x.series_id
            """, [.text(runID)])
        guard !series.isEmpty else { return 0 }
        var localIDs: [Int64] = [], repeats: [String] = [], stepIndexes: [String] = [], subjectIDs: [String] = [], kindIDs: [String] = []
        for row in series {
            let component = row[3].string ?? "", strategy = row[4].string ?? "", kind = row[5].string ?? ""
            guard let subject = subjects[component + "\u{0}" + strategy] else {
                throw PushError.inconsistentRun(runID: runID, detail: "no subject for \(component)/\(strategy)")
            }
            guard let kindID = kinds[kind] else {
                throw PushError.inconsistentRun(runID: runID, detail: "event kind \(kind) is unknown to the store")
            }
            localIDs.append(row[0].int64 ?? 0)
            repeats.append(String(row[1].int64 ?? 0))
            stepIndexes.append(String(row[2].int64 ?? 0))
            subjectIDs.append(String(subject))
            kindIDs.append(String(kindID))
        }
        // One statement for the run's series, ids handed out in the file's order.
        let inserted = try store.query("""
            INSERT INTO event_series (run_key, repeat, step, subject_id, kind_id)
            SELECT $1, r, st, s, k FROM unnest(CAST($2 AS bigint[]), CAST($3 AS bigint[]), CAST($4 AS bigint[]), CAST($5 AS bigint[]))
                WITH ORDINALITY AS x (r, st, s, k, n)
            ORDER BY n
            RETURNING series_id
            """, [.integer(runKey), .text("{" + repeats.joined(separator: ",") + "}"), .text("{" + stepIndexes.joined(separator: ",") + "}"),
                  .text("{" + subjectIDs.joined(separator: ",") + "}"), .text("{" + kindIDs.joined(separator: ",") + "}")])
        let storeIDs = inserted.rows.compactMap { $0.first?.int64 }.sorted()
        guard storeIDs.count == localIDs.count else {
            throw PushError.inconsistentRun(runID: runID, detail: "\(localIDs.count) event series, \(storeIDs.count) added to the store")
        }
        let events = try local.prepare("""
            SELECT seq, instance, allocations, frees, requested_bytes, usable_extra_bytes, duration_ns, at_us, retains, releases,
                   peak_requested_bytes
            FROM events WHERE series_id = ? ORDER BY seq
            """)
        var next = 0
        var count = 0
        var open = false
        try store.copy(into: "events", columns: storeEventColumns) { buffer in
            while true {
                if !open {
                    guard next < localIDs.count else { return false }
                    try events.bind([.integer(localIDs[next])])
                    open = true
                }
                while try events.step() {
                    buffer.append(integer: storeIDs[next])
                    for column in Int32(0)..<Int32(storeEventColumns.count - 1) {
                        buffer.bytes.append(9)
                        buffer.append(events.value(at: column))
                    }
                    buffer.bytes.append(10)
                    count += 1
                    if buffer.isFull { return true }
                }
                events.reset()
                open = false
                next += 1
            }
        }
        return count
    }

    /// Local baselines whose run is in the store and whose (name, scenario) is free there.
    /// A team's baseline already in the store is never overwritten by a push.
    static func pushBaselines(local: SQLiteConnection, store: PostgresConnection) throws -> Int {
        var added = 0
        for row in try local.rows("SELECT name, scenario, run_id, created_at FROM baselines ORDER BY name, scenario") {
            let result = try store.query("""
                INSERT INTO baselines (name, scenario, run_id, created_at)
                SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = $3)
                ON CONFLICT DO NOTHING RETURNING 1
                """, row)
            added += result.rows.count
        }
        return added
    }
}

/// A push that failed after it had committed some runs: the store's error, and how many
/// runs are in the store whole (the message says so instead of "Nothing was written").
package struct PushCutOff: Error, CustomStringConvertible, Equatable, Sendable {
    package let cause: PostgresError
    package let runsPushed: Int

    package var description: String { cause.description(runsKept: runsPushed) }
}

/// A local run that cannot be pushed as it is.
package enum PushError: Error, CustomStringConvertible, Equatable, Sendable {
    case inconsistentRun(runID: String, detail: String)

    package var description: String {
        switch self {
        case .inconsistentRun(let runID, let detail):
            "run \(runID) cannot be pushed: \(detail). Nothing of it was written to the store."
        }
    }
}
