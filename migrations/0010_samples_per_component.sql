-- profctl schema, version 10: a live-bytes sample per point taken, so a step taken once
-- per component (lazy-container's and every comparison's `build` and `release`, for
-- Label, then Button, then ImageView) keeps each component's figure. `samples` was keyed
-- by (run, repeat, strategy, step): each component's row replaced the one before, and the
-- timeline, the HTML page's live-bytes chart and the Chrome trace showed only the last
-- component (lazy-container's chart peaked at ImageView's 571 B per instance where
-- Button's build held 912). Never edit this file once it has shipped: add a new numbered
-- migration instead.
--
-- SQLite cannot change a primary key in place: the table is rebuilt under its own name.
-- legacy_alter_table lets the rename leave the views that name `samples`
-- (sample_summary) as they are: they read the rebuilt table by name.
PRAGMA legacy_alter_table = ON;

CREATE TABLE samples_by_point (
    run_key              INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    point                INTEGER NOT NULL,          -- 1, 2, ... in the order the samples were taken in the run
    repeat               INTEGER NOT NULL,
    strategy             TEXT NOT NULL,
    component            TEXT NOT NULL DEFAULT '',  -- the step's component; '' when a step is not one component's
    step                 INTEGER NOT NULL,
    live_requested_bytes INTEGER NOT NULL,
    live_usable_bytes    INTEGER NOT NULL,
    peak_requested_bytes INTEGER NOT NULL,          -- the highest live_requested_bytes so far in the repeat
    elapsed_ns           INTEGER NOT NULL,          -- since the run started, monotonic clock
    PRIMARY KEY (run_key, point)
) STRICT;

-- Runs recorded before: one point per row they kept, in the order taken.
INSERT INTO samples_by_point (run_key, point, repeat, strategy, component, step, live_requested_bytes, live_usable_bytes,
                              peak_requested_bytes, elapsed_ns)
SELECT run_key, ROW_NUMBER() OVER (PARTITION BY run_key ORDER BY elapsed_ns, repeat, strategy, step),
       repeat, strategy, '', step, live_requested_bytes, live_usable_bytes, peak_requested_bytes, elapsed_ns
FROM samples;

DROP VIEW timeline;
DROP TABLE samples;
ALTER TABLE samples_by_point RENAME TO samples;

PRAGMA legacy_alter_table = OFF;

-- The timeline: as before, with `component` after `strategy`: one row per point.
CREATE VIEW timeline AS
SELECT r.run_id, r.scenario, m.repeat, m.strategy, m.component, m.step AS step_index, st.name AS step,
       m.live_requested_bytes, m.live_usable_bytes, m.peak_requested_bytes, m.elapsed_ns
FROM samples m
JOIN runs r ON r.run_key = m.run_key
JOIN steps st ON st.run_key = m.run_key AND st.step = m.step;
