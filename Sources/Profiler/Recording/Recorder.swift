import Foundation
import ProfilerHooks
import ProfilerModel
import ProfilerStore
import ProfilerSupport

/// Records one run: the run row first, then events through a bounded buffer to one
/// writer thread that inserts them in large transactions, 64 rows per statement execution,
/// then the rollups and the final status in one transaction.
///
///     let recorder = try Recorder.start(database: "profile.sqlite", run: description)
///     try probe.measure(.create) { ... }      // probes send events to the recorder
///     let summary = try recorder.finish()
package final class Recorder: EventSink, @unchecked Sendable {
    package let runID: String
    /// The run's key in this database (events refer to it).
    package let runKey: Int64
    package let databasePath: String
    private let buffer: EventBuffer
    private let writerDone = DispatchSemaphore(value: 0)
    private let startedAt = AllocationScope.monotonicNanoseconds()
    // Used by the thread that calls start/finish/abort, and by the writer thread between
    // start and the end of drain(), never by both at once.
    private let connection: SQLiteConnection
    private var ended = false
    private var drained = false
    /// The writer's figures per series, handed over when it is done.
    private var written = WrittenFigures()
    /// Temporaries and size classes per series, written with the rollups.
    private let lifetimes = SeriesLifetimes()

    /// Events per write transaction: large enough that the commit cost vanishes.
    package static let batchSize = 4096

    /// Whether the run's events store their retains and releases (else NULL: not counted).
    private let countsARC: Bool

    private init(runID: String, runKey: Int64, connection: SQLiteConnection, bufferCapacity: Int, countsARC: Bool) {
        self.countsARC = countsARC
        self.runID = runID
        self.runKey = runKey
        self.connection = connection
        self.databasePath = connection.path
        self.buffer = EventBuffer(capacity: bufferCapacity)
    }

    /// Opens (creating and migrating if needed) the database, inserts the run as
    /// `running` and starts the writer thread.
    package static func start(database path: String, run: RunDescription,
                             environment: RunEnvironment = .current(),
                             bufferCapacity: Int = 65_536) throws -> Recorder {
        try start(connection: ProfileStore.openForWriting(path: path, views: run.reportViews), run: run,
                  environment: environment, bufferCapacity: bufferCapacity)
    }

    /// Starts on a connection already opened with `ProfileStore.openForWriting` (and the
    /// run's report views installed), which the recorder then owns and closes: a caller
    /// that read the database before recording pays one schema parse, not two.
    package static func start(connection: SQLiteConnection, run: RunDescription,
                             environment: RunEnvironment = .current(),
                             bufferCapacity: Int = 65_536) throws -> Recorder {
        let runID = UUID().uuidString.lowercased()
        let inserted = try connection.scalar("""
            INSERT INTO runs (run_id, scenario, status, started_at, git_commit, branch, ci_provider, ci_job, pull_request,
                              host, os, arch, swift_version,
                              build_configuration, tool_version, baseline_strategy, report, parameters, process_id,
                              arc_counting, arc_toolchain)
            VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING run_key
            """, [
                .text(runID), .text(run.scenario), .text(Timestamp.now()), SQLValue(environment.gitCommit),
                SQLValue(environment.ci.branch), SQLValue(environment.ci.provider), SQLValue(environment.ci.job),
                SQLValue(environment.ci.pullRequest),
                .text(environment.host), .text(environment.os), .text(environment.arch),
                .text(environment.swiftVersion), .text(environment.buildConfiguration),
                .text(environment.toolVersion), .text(run.baselineStrategy), .text(run.report),
                .text(run.parametersJSON),
                .init(Int(getpid())),
                SQLValue(environment.arcCounting), SQLValue(environment.arcToolchain),
            ])
        guard let runKey = inserted?.int64 else {
            throw SQLiteError(code: 1, message: "the new run \(runID) could not be read back")
        }
        if let declaration = run.declaration {
            try connection.run("INSERT INTO run_declarations (run_key, declaration) VALUES (?, ?)", [.integer(runKey), .text(declaration)])
        }
        let recorder = Recorder(runID: runID, runKey: runKey, connection: connection, bufferCapacity: bufferCapacity,
                                countsARC: environment.countsARC)
        recorder.startWriter()
        return recorder
    }

    private func startWriter() {
        // One connection for the whole run: the writer thread has it from here until
        // writerDone is signalled, and this thread does not touch it in between (opening
        // a second one cost a schema parse per run).
        // The closure holds the recorder (and so its connection) until the thread lets go of
        // it, which may come after writerDone is signalled and even after the process exits:
        // finish() and abort() therefore close the connection themselves.
        let thread = Thread { [self, buffer, runKey, startedAt, writerDone, countsARC] in
            let written = EventWriter.drain(buffer, into: self.connection, runKey: runKey, runStart: startedAt, countsARC: countsARC)
            // Read only after writerDone is signalled (the semaphore orders the two threads).
            self.written = written
            writerDone.signal()
        }
        thread.name = "profctl-writer"
        thread.start()
    }

    /// The latest event's component and strategy, create events and all events so far.
    package var progress: (component: String, strategy: String, created: Int, events: Int) { buffer.progress }

    /// Nanoseconds since the recorder started.
    package var elapsedNanoseconds: UInt64 { AllocationScope.monotonicNanoseconds() &- startedAt }

    package func record(_ event: Event) throws {
        try buffer.push(event)
    }

    package func addLifetimes(of scopeID: UInt64, for event: Event) {
        lifetimes.add(scopeID: scopeID, kind: event.kind, component: event.component, strategy: event.strategy)
    }

    package func enterStep(_ name: String) throws {
        try buffer.push(marker: .step(name))
    }

    package func metric(_ name: String, _ value: Double, strategy: String, repeatIndex: Int) throws {
        try buffer.push(marker: .metric(name: name, value: value, strategy: strategy, repeatIndex: repeatIndex))
    }

    package func sample(strategy: String, component: String, repeatIndex: Int) throws {
        let elapsed = AllocationScope.monotonicNanoseconds() &- startedAt
        try buffer.push(marker: .sample(strategy: strategy, component: component, repeatIndex: repeatIndex, elapsedNanoseconds: elapsed))
    }

    /// Waits until every event recorded so far is in the database. Recording may not
    /// continue afterwards; `finish()` still writes the rollups.
    package func drain() throws {
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
    package func finish() throws -> RunSummary {
        guard !ended else { throw RecorderError.alreadyEnded(runID) }
        ended = true
        // Closed here, not when the recorder goes: the writer thread or a progress display
        // may hold the recorder past the process's exit, which would leave the run in `-wal`.
        defer { connection.close() }
        do {
            try drain()
            try connection.transaction {
                try RunRollups(db: connection, runKey: runKey, series: written.series, held: written.held,
                               severalRepeats: buffer.sawSeveralRepeats, countsARC: countsARC).write()
                try lifetimes.write(db: connection, runKey: runKey)
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
    package func abort(because error: any Error) {
        guard !ended else { return }
        ended = true
        try? drain()
        markAborted(because: error)
        connection.close()
    }

    private func markAborted(because error: any Error) {
        try? connection.run("UPDATE runs SET status = 'aborted', ended_at = ?, error = ? WHERE run_key = ?",
                            [.text(Timestamp.now()), .text(String(describing: error)), .integer(runKey)])
    }

    deinit {
        if !ended { abort(because: RecorderError.notFinished) }
    }
}

/// What a finished run wrote.
package struct RunSummary: Sendable, Equatable {
    package let runID: String
    package let events: Int
}

package enum RecorderError: Error, CustomStringConvertible, Sendable {
    case alreadyEnded(String)
    case notFinished

    package var description: String {
        switch self {
        case .alreadyEnded(let run): "run \(run) has already ended"
        case .notFinished: "the recorder was released before finish() was called"
        }
    }
}
