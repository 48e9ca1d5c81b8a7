import Foundation

/// Records one run: the run row first, then events through a bounded buffer to one
/// writer thread that inserts them in large transactions with one prepared statement,
/// then the rollups and the final status in one transaction.
///
///     let recorder = try Recorder.start(database: "profile.sqlite", run: description)
///     try probe.measure(.create) { ... }      // probes send events to the recorder
///     let summary = try recorder.finish()
public final class Recorder: EventSink, @unchecked Sendable {
    public let runID: String
    /// The run's key in this database (events refer to it).
    public let runKey: Int64
    public let databasePath: String
    private let buffer: EventBuffer
    private let writerDone = DispatchSemaphore(value: 0)
    private let startedAt = AllocationScope.monotonicNanoseconds()
    // Touched only by the thread that calls start/finish/abort.
    private let connection: SQLiteConnection
    private var ended = false
    private var drained = false

    /// Events per write transaction: large enough that the commit cost vanishes.
    public static let batchSize = 4096

    private init(runID: String, runKey: Int64, connection: SQLiteConnection, bufferCapacity: Int) {
        self.runID = runID
        self.runKey = runKey
        self.connection = connection
        self.databasePath = connection.path
        self.buffer = EventBuffer(capacity: bufferCapacity)
    }

    /// Opens (creating and migrating if needed) the database, inserts the run as
    /// `running` and starts the writer thread.
    public static func start(database path: String, run: RunDescription,
                             environment: RunEnvironment = .current(),
                             bufferCapacity: Int = 65_536) throws -> Recorder {
        let connection = try ProfileStore.openForWriting(path: path)
        let runID = UUID().uuidString.lowercased()
        try connection.run("""
            INSERT INTO runs (run_id, scenario, status, started_at, git_commit, branch, ci_provider, ci_job, pull_request,
                              host, os, arch, swift_version,
                              build_configuration, tool_version, baseline_strategy, report, parameters, process_id)
            VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .text(runID), .text(run.scenario), .text(Timestamp.now()), SQLValue(environment.gitCommit),
                SQLValue(environment.ci.branch), SQLValue(environment.ci.provider), SQLValue(environment.ci.job),
                SQLValue(environment.ci.pullRequest),
                .text(environment.host), .text(environment.os), .text(environment.arch),
                .text(environment.swiftVersion), .text(environment.buildConfiguration),
                .text(environment.toolVersion), .text(run.baselineStrategy), .text(run.report.rawValue),
                .text(run.parametersJSON),
                .init(Int(getpid())),
            ])
        guard let runKey = try connection.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(runID)])?.int64 else {
            throw SQLiteError(code: 1, message: "the new run \(runID) could not be read back")
        }
        let recorder = Recorder(runID: runID, runKey: runKey, connection: connection, bufferCapacity: bufferCapacity)
        recorder.startWriter()
        return recorder
    }

    private func startWriter() {
        let thread = Thread { [buffer, databasePath, runKey, startedAt, writerDone] in
            EventWriter.drain(buffer, into: databasePath, runKey: runKey, runStart: startedAt)
            writerDone.signal()
        }
        thread.name = "profctl-writer"
        thread.start()
    }

    public func record(_ event: Event) throws {
        try buffer.push(event)
    }

    public func enterStep(_ name: String) throws {
        try buffer.push(marker: .step(name))
    }

    public func metric(_ name: String, _ value: Double, strategy: String, repeatIndex: Int) throws {
        try buffer.push(marker: .metric(name: name, value: value, strategy: strategy, repeatIndex: repeatIndex))
    }

    public func sample(strategy: String, repeatIndex: Int) throws {
        let elapsed = AllocationScope.monotonicNanoseconds() &- startedAt
        try buffer.push(marker: .sample(strategy: strategy, repeatIndex: repeatIndex, elapsedNanoseconds: elapsed))
    }

    /// Waits until every event recorded so far is in the database. Recording may not
    /// continue afterwards; `finish()` still writes the rollups.
    public func drain() throws {
        if !drained {
            drained = true
            buffer.close()
            writerDone.wait()
        }
        if let error = buffer.error { throw error }
    }

    /// Waits for every event to be written, then writes the rollups and marks the run
    /// complete, all in one transaction. On failure the run is marked aborted.
    @discardableResult
    public func finish() throws -> RunSummary {
        guard !ended else { throw RecorderError.alreadyEnded(runID) }
        ended = true
        do {
            try drain()
            try connection.transaction {
                try connection.run(Self.rollupSQL, [.integer(runKey)])
                try connection.run(Self.stepRollupSQL, [.integer(runKey)])
                if buffer.sawSeveralRepeats { try connection.run(Self.latencyRollupSQL, [.integer(runKey)]) }
                try connection.run("UPDATE runs SET status = 'complete', ended_at = ? WHERE run_key = ?",
                                   [.text(Timestamp.now()), .integer(runKey)])
            }
        } catch {
            markAborted(because: error)
            throw error
        }
        return RunSummary(runID: runID, events: Int(buffer.accepted))
    }

    /// Stops the run and marks it aborted with the reason. Events already written stay.
    public func abort(because error: any Error) {
        guard !ended else { return }
        ended = true
        try? drain()
        markAborted(because: error)
    }

    private func markAborted(because error: any Error) {
        try? connection.run("UPDATE runs SET status = 'aborted', ended_at = ?, error = ? WHERE run_key = ?",
                            [.text(Timestamp.now()), .text(String(describing: error)), .integer(runKey)])
    }

    deinit {
        if !ended { abort(because: RecorderError.notFinished) }
    }

    /// Per (component, strategy): the bytes each instance holds (its create (kind 0) and
    /// realize (1) events; release is 5), over all repeats, with the smallest and largest instance so a report can
    /// tell an exact figure from an average.
    static let rollupSQL = """
        WITH per_instance AS (
            SELECT e.subject_id, e.repeat, e.instance,
                   MIN(e.seq) AS first_seq,
                   MAX(e.kind_id = 0) AS created,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.allocations ELSE 0 END) AS allocations,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.requested_bytes ELSE 0 END) AS requested,
                   SUM(CASE WHEN e.kind_id IN (0, 1) THEN e.usable_bytes ELSE 0 END) AS usable,
                   SUM(CASE WHEN e.kind_id = 5 THEN -e.requested_bytes ELSE 0 END) AS released_requested,
                   SUM(CASE WHEN e.kind_id = 5 THEN -e.usable_bytes ELSE 0 END) AS released_usable
            FROM events e
            WHERE e.run_key = ?1
            GROUP BY e.subject_id, e.repeat, e.instance
        )
        INSERT INTO rollups (run_key, component, strategy, ordinal, instances, repeats, allocations,
                             requested_bytes, usable_bytes,
                             min_instance_requested, max_instance_requested,
                             min_instance_usable, max_instance_usable,
                             released_requested_bytes, released_usable_bytes)
        SELECT ?1, s.component, s.strategy,
               ROW_NUMBER() OVER (ORDER BY MIN(p.first_seq)),
               SUM(p.created) / COUNT(DISTINCT p.repeat), COUNT(DISTINCT p.repeat), SUM(p.allocations),
               SUM(p.requested), SUM(p.usable),
               MIN(p.requested), MAX(p.requested), MIN(p.usable), MAX(p.usable),
               SUM(p.released_requested), SUM(p.released_usable)
        FROM per_instance p
        JOIN subjects s ON s.subject_id = p.subject_id
        GROUP BY p.subject_id
        HAVING SUM(p.created) > 0
        """
}

extension Recorder {
    /// Per (step, subject, kind): counts, bytes, and latency by nearest rank.
    static let stepRollupSQL = """
        WITH ranked AS (
            SELECT seq, step, subject_id, kind_id, repeat, instance, requested_bytes, usable_bytes, duration_ns,
                   ROW_NUMBER() OVER (PARTITION BY step, subject_id, kind_id ORDER BY duration_ns) AS position,
                   COUNT(*) OVER (PARTITION BY step, subject_id, kind_id) AS total
            FROM events
            WHERE run_key = ?1
        )
        INSERT INTO step_rollups (run_key, step, component, strategy, kind, events, instances,
                                  requested_bytes, usable_bytes, duration_ns_total,
                                  duration_ns_median, duration_ns_p90, first_seq)
        SELECT ?1, x.step, s.component, s.strategy, k.name, COUNT(*),
               COUNT(DISTINCT x.repeat || ':' || x.instance),
               SUM(x.requested_bytes), SUM(x.usable_bytes), SUM(x.duration_ns),
               MAX(CASE WHEN x.position = (x.total + 1) / 2 THEN x.duration_ns END),
               MAX(CASE WHEN x.position = (9 * x.total + 9) / 10 THEN x.duration_ns END),
               MIN(x.seq)
        FROM ranked x
        JOIN subjects s ON s.subject_id = x.subject_id
        JOIN event_kinds k ON k.kind_id = x.kind_id
        GROUP BY x.step, x.subject_id, x.kind_id
        """
}

extension Recorder {
    /// Per (step, subject, kind, repeat) of create and realize events: the median duration.
    static let latencyRollupSQL = """
        WITH ranked AS (
            SELECT step, subject_id, kind_id, repeat, duration_ns,
                   ROW_NUMBER() OVER (PARTITION BY step, subject_id, kind_id, repeat ORDER BY duration_ns) AS position,
                   COUNT(*) OVER (PARTITION BY step, subject_id, kind_id, repeat) AS total
            FROM events
            WHERE run_key = ?1 AND kind_id IN (0, 1)
        )
        INSERT INTO latency_rollups (run_key, step, component, strategy, kind, repeat, events, duration_ns_median)
        SELECT ?1, x.step, s.component, s.strategy, k.name, x.repeat, COUNT(*),
               MAX(CASE WHEN x.position = (x.total + 1) / 2 THEN x.duration_ns END)
        FROM ranked x
        JOIN subjects s ON s.subject_id = x.subject_id
        JOIN event_kinds k ON k.kind_id = x.kind_id
        GROUP BY x.step, x.subject_id, x.kind_id, x.repeat
        """
}

/// What a finished run wrote.
public struct RunSummary: Sendable, Equatable {
    public let runID: String
    public let events: Int
}

public enum RecorderError: Error, CustomStringConvertible, Sendable {
    case alreadyEnded(String)
    case notFinished

    public var description: String {
        switch self {
        case .alreadyEnded(let run): "run \(run) has already ended"
        case .notFinished: "the recorder was released before finish() was called"
        }
    }
}
