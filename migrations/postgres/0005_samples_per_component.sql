-- PostgreSQL shared store, version 5: a live-bytes sample per point taken, as the SQLite
-- file's migration 0010: `samples` gains `point` (its number in the run, the new key)
-- and `component` (the step's component, '' when a step is not one component's), so a
-- step taken once per component keeps each component's figure. Never edit this file once
-- it has shipped: add a new numbered migration instead.
ALTER TABLE samples ADD COLUMN point BIGINT;
ALTER TABLE samples ADD COLUMN component TEXT NOT NULL DEFAULT '';

-- Runs pushed before: one point per row they kept, in the order taken.
UPDATE samples s SET point = n.point
FROM (SELECT run_key, repeat, strategy, step,
             ROW_NUMBER() OVER (PARTITION BY run_key ORDER BY elapsed_ns, repeat, strategy, step) AS point
      FROM samples) n
WHERE n.run_key = s.run_key AND n.repeat = s.repeat AND n.strategy = s.strategy AND n.step = s.step;

ALTER TABLE samples ALTER COLUMN point SET NOT NULL;
ALTER TABLE samples DROP CONSTRAINT samples_pkey;
ALTER TABLE samples ADD PRIMARY KEY (run_key, point);

-- The timeline: as before, with `component` after `strategy`: one row per point.
DROP VIEW timeline;
CREATE VIEW timeline AS
SELECT r.run_id, r.scenario, m.repeat, m.strategy, m.component, m.step AS step_index, st.name AS step,
       m.live_requested_bytes, m.live_usable_bytes, m.peak_requested_bytes, m.elapsed_ns
FROM samples m
JOIN runs r ON r.run_key = m.run_key
JOIN steps st ON st.run_key = m.run_key AND st.step = m.step;
