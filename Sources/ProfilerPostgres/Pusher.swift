import Foundation
import Profiler

/// Copies finished runs from a local SQLite file into the PostgreSQL store.
///
/// - Idempotent by run UUID: a run already in the store is skipped, so pushing twice adds
///   nothing, and concurrent pushers of the same run add it once (the unique run_id makes
///   the second wait for the first and then skip).
/// - One transaction per run: a run is visible with all its rows or not at all.
/// - Reads the local file through its public columns and views by name (`event_log` for
///   events), never through table layouts, so a local schema change that keeps the views
///   keeps push working. The local file is opened read-only and never changed.
public enum Pusher {
    public struct Outcome: Sendable, Equatable {
        public var runsAdded = 0
        public var runsAlreadyPresent = 0
        public var runsLeftOut = 0
        public var eventsCopied = 0
        public var baselinesAdded = 0
        public var seconds = 0.0
    }

    /// The event_log columns read, and the store's events columns they become.
    static let eventColumns = ["seq", "repeat", "step", "component", "strategy", "instance", "kind",
                               "allocations", "frees", "requested_bytes", "usable_bytes", "duration_ns", "at_us"]
    static let storeEventColumns = ["run_key", "seq", "repeat", "step", "subject_id", "instance", "kind_id",
                                    "allocations", "frees", "requested_bytes", "usable_bytes", "duration_ns", "at_us"]

    /// Pushes the runs of `local` (complete ones, or every one with `includeIncomplete`).
    /// `progress` hears one line per run.
    public static func push(from localPath: String, to target: String, includeIncomplete: Bool = false,
                            progress: (String) -> Void = { _ in }) throws -> Outcome {
        let started = Date()
        let local = try ProfileStore.openForReading(path: localPath, repairAbandoned: false)
        let store = try PostgresConnection(target)
        try store.execute("SET client_min_messages = warning")
        try PostgresMigrator().migrate(store)
        var outcome = Outcome()
        let statusFilter = includeIncomplete ? "" : "WHERE status = 'complete'"
        let columns = RunTables.runColumns.joined(separator: ", ")
        let runs = try local.prepare("SELECT \(columns) FROM runs \(statusFilter) ORDER BY started_at, run_id")
        let runRows = try runs.rows()
        outcome.runsLeftOut = Int(try local.scalar("SELECT count(*) FROM runs")?.int64 ?? 0) - runRows.count
        let kinds = try kindIDs(store)
        for run in runRows {
            guard let runID = run[0].string else { continue }
            let added = try pushRun(run, runID: runID, local: local, store: store, kinds: kinds)
            if let events = added {
                outcome.runsAdded += 1
                outcome.eventsCopied += events
                progress("\(runID): pushed (\(events) events)")
            } else {
                outcome.runsAlreadyPresent += 1
            }
        }
        outcome.baselinesAdded = try pushBaselines(local: local, store: store)
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
        return try store.transaction { () throws -> Int? in
            let placeholders = (1...RunTables.runColumns.count).map { "$\($0)" }.joined(separator: ", ")
            let inserted = try store.query(
                "INSERT INTO runs (\(RunTables.runColumns.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT (run_id) DO NOTHING RETURNING run_key",
                run)
            // Another pusher added it between the check and here: nothing to do.
            guard let runKey = inserted.rows.first?.first?.int64 else { return nil }
            var stepIndex: [String: Int64] = [:]
            for row in try local.rows("SELECT st.step, st.name FROM steps st JOIN runs r USING (run_key) WHERE r.run_id = ?", [.text(runID)]) {
                if let index = row[0].int64, let name = row[1].string { stepIndex[name] = index }
            }
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
            return try copyEvents(runID: runID, runKey: runKey, local: local, store: store,
                                  subjects: subjects, kinds: kinds, steps: stepIndex)
        }
    }

    /// The store's subject ids for the run's (component, strategy) pairs, adding missing
    /// ones first in a short transaction of their own (in a fixed order, so concurrent
    /// pushers never deadlock on them; an unused subject is harmless).
    static func subjectIDs(for runID: String, local: SQLiteConnection, store: PostgresConnection) throws -> [String: Int64] {
        let pairs = try local.rows("""
            SELECT DISTINCT component, strategy FROM event_log WHERE run_id = ? ORDER BY component, strategy
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

    /// Streams the run's events from the local event_log view into the store with COPY.
    static func copyEvents(runID: String, runKey: Int64, local: SQLiteConnection, store: PostgresConnection,
                           subjects: [String: Int64], kinds: [String: Int64], steps: [String: Int64]) throws -> Int {
        let events = try local.prepare("SELECT \(eventColumns.joined(separator: ", ")) FROM event_log WHERE run_id = ? ORDER BY seq")
        try events.bind([.text(runID)])
        var count = 0
        try store.copy(into: "events", columns: storeEventColumns) { buffer in
            while try events.step() {
                let component = events.value(at: 3).string ?? ""
                let strategy = events.value(at: 4).string ?? ""
                let kind = events.value(at: 6).string ?? ""
                let step = events.value(at: 2).string ?? "run"
                guard let subject = subjects[component + "\u{0}" + strategy] else {
                    throw PushError.inconsistentRun(runID: runID, detail: "no subject for \(component)/\(strategy)")
                }
                guard let kindID = kinds[kind] else {
                    throw PushError.inconsistentRun(runID: runID, detail: "event kind \(kind) is unknown to the store")
                }
                buffer.append(integer: runKey); buffer.bytes.append(9)
                buffer.append(events.value(at: 0)); buffer.bytes.append(9)
                buffer.append(events.value(at: 1)); buffer.bytes.append(9)
                buffer.append(integer: steps[step] ?? 0); buffer.bytes.append(9)
                buffer.append(integer: subject); buffer.bytes.append(9)
                buffer.append(events.value(at: 5)); buffer.bytes.append(9)
                buffer.append(integer: kindID)
                for column in Int32(7)...Int32(12) {
                    buffer.bytes.append(9)
                    buffer.append(events.value(at: column))
                }
                buffer.bytes.append(10)
                count += 1
                if buffer.isFull { return true }
            }
            return false
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

/// A local run that cannot be pushed as it is.
public enum PushError: Error, CustomStringConvertible, Equatable, Sendable {
    case inconsistentRun(runID: String, detail: String)

    public var description: String {
        switch self {
        case .inconsistentRun(let runID, let detail):
            "run \(runID) cannot be pushed: \(detail). Nothing of it was written to the store."
        }
    }
}
