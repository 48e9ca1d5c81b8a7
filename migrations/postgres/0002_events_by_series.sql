-- profctl's PostgreSQL store, version 2: events stored by series, as the SQLite file's
-- version 4 (migrations/0004_events_by_series.sql) stores them. Never edit this file once
-- it has shipped: add a new numbered migration instead.
--
-- An event's run, repeat, step, subject (component and strategy) and kind stay the same
-- for long stretches of a run, so they are named once, in `event_series`, and each event
-- row carries only its series. Usable bytes are stored as what they add to the requested
-- ones; the views add them back. `event_log` keeps every column it had, and `event_rows`
-- is new, with the columns SQLite's has.
--
-- PostgreSQL has no clustered tables: rows lie in the order they were written. `profctl
-- push` writes a run's events series by series, each in seq order, so a run's rows lie in
-- (series_id, seq) order as SQLite's WITHOUT ROWID table keeps them; the rows already here
-- are moved in that order below. The primary key's index serves lookups by series.
--
-- As in version 1, events carry no foreign key (a per-row check made COPY 5.5 times
-- slower); event_series does, and deleting a run deletes its series (ON DELETE CASCADE)
-- and, through the trigger below, their events first.

CREATE TABLE event_series (
    series_id  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_key    BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat     BIGINT NOT NULL,
    step       BIGINT NOT NULL,
    subject_id BIGINT NOT NULL REFERENCES subjects (subject_id),
    kind_id    BIGINT NOT NULL REFERENCES event_kinds (kind_id),
    UNIQUE (run_key, repeat, step, subject_id, kind_id)
);

CREATE TABLE events_by_series (
    series_id          BIGINT NOT NULL,
    seq                BIGINT NOT NULL,
    instance           BIGINT NOT NULL,
    allocations        BIGINT NOT NULL,
    frees              BIGINT NOT NULL,
    requested_bytes    BIGINT NOT NULL,
    usable_extra_bytes BIGINT NOT NULL,
    duration_ns        BIGINT NOT NULL,
    at_us              BIGINT NOT NULL,
    CONSTRAINT events_by_series_key PRIMARY KEY (series_id, seq)
);

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
DROP TRIGGER runs_delete_events ON runs;
DROP FUNCTION delete_run_events();
DROP TABLE events;
ALTER TABLE events_by_series RENAME TO events;
ALTER TABLE events RENAME CONSTRAINT events_by_series_key TO events_pkey;

-- Before the run's row goes (and its series with it, by cascade): its events.
CREATE FUNCTION delete_run_events() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN
        DELETE FROM events WHERE series_id IN (SELECT series_id FROM event_series WHERE run_key = OLD.run_key);
        RETURN OLD;
    END $$;

CREATE TRIGGER runs_delete_events BEFORE DELETE ON runs FOR EACH ROW EXECUTE FUNCTION delete_run_events();

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

-- Events with their series' integer keys alongside, as SQLite's view of the same name.
CREATE VIEW event_rows AS
SELECT x.run_key, e.seq, x.repeat, x.step, x.subject_id, e.instance, x.kind_id,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.series_id
FROM events e
JOIN event_series x ON x.series_id = e.series_id;
