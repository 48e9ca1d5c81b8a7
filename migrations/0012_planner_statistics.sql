-- profctl schema, version 12: what SQLite's query planner needs to read event_log fast
-- (issue 25). Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Without statistics SQLite takes every table to hold about a million rows, so for an
-- analyst's `SELECT kind, count(*), sum(requested_bytes) FROM event_log GROUP BY kind` it
-- scanned the events first, looked up the series, run, step, subject and kind of every
-- event, and sorted all of them for the GROUP BY (6.5 s over 10M events). Told the shape
-- of the data (many events per series, a handful of series, subjects, kinds and runs), it
-- walks the small tables first, in the GROUP BY's order where one exists, and reads each
-- series' events in one stretch of the events' primary key: nothing to sort.

-- Series by run and subject: a GROUP BY on run, component and strategy (docs/schema.md's
-- "left behind" example) then reaches each subject's series without a sort.
CREATE INDEX event_series_by_subject ON event_series (run_key, subject_id);

-- The shape, not this file's counts: the same for every database, whatever it holds, so
-- a plan never depends on when the file was last analysed. `ANALYZE event_kinds` creates
-- sqlite_stat1 (only ANALYZE can); SQLite documents writing its rows directly. An analyst
-- who runs ANALYZE replaces them with the file's own counts, which lead to the same plans.
ANALYZE event_kinds;
DELETE FROM sqlite_stat1;
INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    -- events: about a thousand per series (the primary key is series_id, seq)
    ('events', 'events', '10000000 1000 1'),
    -- series: per run a thousand, per (run, repeat) a hundred, ...
    ('event_series', 'sqlite_autoindex_event_series_1', '10000 1000 100 20 3 1'),
    ('event_series', 'event_series_by_subject', '10000 1000 3'),
    ('runs', 'sqlite_autoindex_runs_1', '10 1'),
    ('runs', 'runs_by_scenario', '10 3 1'),
    ('steps', 'sqlite_autoindex_steps_1', '20 2 1'),
    ('steps', 'sqlite_autoindex_steps_2', '20 2 1'),
    ('subjects', 'sqlite_autoindex_subjects_1', '10 3 1'),
    ('event_kinds', 'sqlite_autoindex_event_kinds_1', '6 1');

-- event_log with the same columns, meaning and rows; only the joins are written so that
-- the events come last (a CROSS JOIN is SQLite's word for "keep this order"): the step,
-- subject, kind and run of a series are looked up once per series, not once per event.
DROP VIEW event_log;
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us
FROM event_series x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
CROSS JOIN events e ON e.series_id = x.series_id;
