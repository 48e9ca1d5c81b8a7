-- profctl schema, version 4: events stored by series. Never edit this file once it has
-- shipped: add a new numbered migration instead.
--
-- An event's run, repeat, step, subject (component and strategy) and kind stay the same
-- for long stretches of a run, so they are named once, in `event_series`, and each event
-- row carries only its series. Rows are clustered by (series_id, seq): a GROUP BY over
-- series (per component, strategy, step, kind) reads the events in order and streams
-- instead of sorting, and an event row is about 5 bytes smaller than before. Usable bytes
-- are stored as what they add to the requested ones (a few bytes of size-class rounding,
-- a byte where the full figure took two); the views add them back.
-- The event_log view keeps every column it had.

-- One (run, repeat, step, component and strategy, kind): what a stretch of events shares.
CREATE TABLE event_series (
    series_id  INTEGER PRIMARY KEY,
    run_key    INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat     INTEGER NOT NULL,                    -- 0-based repetition of the scenario
    step       INTEGER NOT NULL,                    -- steps.step
    subject_id INTEGER NOT NULL REFERENCES subjects (subject_id),
    kind_id    INTEGER NOT NULL REFERENCES event_kinds (kind_id),
    UNIQUE (run_key, repeat, step, subject_id, kind_id)
) STRICT;

-- One lifecycle event: its series, its place in the run's order, and what it measured.
CREATE TABLE events_by_series (
    series_id       INTEGER NOT NULL REFERENCES event_series (series_id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,               -- order within the run
    instance        INTEGER NOT NULL,               -- 0-based within (repeat, subject)
    allocations     INTEGER NOT NULL,
    frees           INTEGER NOT NULL,
    requested_bytes INTEGER NOT NULL,               -- change in live heap bytes (negative for a release)
    usable_extra_bytes INTEGER NOT NULL,            -- usable_bytes - requested_bytes
    duration_ns     INTEGER NOT NULL,               -- monotonic clock, around the measured work
    at_us           INTEGER NOT NULL,               -- when the work started, microseconds since the run started
    PRIMARY KEY (series_id, seq)
) STRICT, WITHOUT ROWID;

INSERT INTO event_series (run_key, repeat, step, subject_id, kind_id)
SELECT run_key, repeat, step, subject_id, kind_id
FROM events
GROUP BY run_key, repeat, step, subject_id, kind_id
ORDER BY run_key, MIN(seq);

INSERT INTO events_by_series (series_id, seq, instance, allocations, frees, requested_bytes, usable_extra_bytes, duration_ns, at_us)
SELECT x.series_id, e.seq, e.instance, e.allocations, e.frees, e.requested_bytes, e.usable_bytes - e.requested_bytes, e.duration_ns, e.at_us
FROM events e
JOIN event_series x ON x.run_key = e.run_key AND x.repeat = e.repeat AND x.step = e.step
                   AND x.subject_id = e.subject_id AND x.kind_id = e.kind_id
ORDER BY x.series_id, e.seq;

DROP VIEW event_log;
DROP TABLE events;
ALTER TABLE events_by_series RENAME TO events;

-- Events with every key spelled out: what analysts query (the same columns as before).
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us
FROM events e
JOIN event_series x ON x.series_id = e.series_id
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id;

-- Events with their series' integer keys alongside: for aggregates that group on the
-- keys first and name them after (the names are joined to a handful of rows, not to
-- every event), and for tools that copy events.
CREATE VIEW event_rows AS
SELECT x.run_key, e.seq, x.repeat, x.step, x.subject_id, e.instance, x.kind_id,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.series_id
FROM events e
JOIN event_series x ON x.series_id = e.series_id;
