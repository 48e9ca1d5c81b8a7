-- profctl schema, version 2: scenarios made of named steps (with live-bytes samples,
-- metrics and per-step rollups), one report view per kind of scenario, CI metadata on
-- runs, and named baselines for `profctl check`. Never edit this file once it has
-- shipped: add a new numbered migration instead.

ALTER TABLE runs ADD COLUMN branch TEXT;           -- CI's branch variable, else git's current branch
ALTER TABLE runs ADD COLUMN ci_provider TEXT;      -- github, gitlab, ci (plain CI=true), or NULL
ALTER TABLE runs ADD COLUMN ci_job TEXT;           -- the CI job or build id
ALTER TABLE runs ADD COLUMN pull_request TEXT;     -- the pull or merge request number
ALTER TABLE runs ADD COLUMN report TEXT NOT NULL DEFAULT 'savings'; -- which report view fits the scenario

-- steps.step: the scenario step an event happened in (runs recorded before steps
-- existed have all their events in step 0, named "run").
ALTER TABLE events ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
-- When the measured work started, in microseconds since the run started (0 for older runs).
ALTER TABLE events ADD COLUMN at_us INTEGER NOT NULL DEFAULT 0;

-- Named baselines for `profctl check --baseline NAME`: per scenario, a label on one run,
-- by run id so it survives merging databases.
CREATE TABLE baselines (
    name       TEXT NOT NULL,
    scenario   TEXT NOT NULL,
    run_id     TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (name, scenario)
) STRICT;

-- The named steps a scenario is made of, numbered in the order they first ran.
CREATE TABLE steps (
    run_key INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step    INTEGER NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (run_key, step),
    UNIQUE (run_key, name)
) STRICT;

-- Live bytes of one strategy at the end of one step: the running sum of its events'
-- bytes in that repeat, so "what was alive after step X" is one query.
CREATE TABLE samples (
    run_key              INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat               INTEGER NOT NULL,
    strategy             TEXT NOT NULL,
    step                 INTEGER NOT NULL,
    live_requested_bytes INTEGER NOT NULL,
    live_usable_bytes    INTEGER NOT NULL,
    peak_requested_bytes INTEGER NOT NULL,         -- the highest live_requested_bytes so far in the repeat
    elapsed_ns           INTEGER NOT NULL,         -- since the run started, monotonic clock
    PRIMARY KEY (run_key, repeat, strategy, step)
) STRICT;

-- Numbers a scenario observes that are not lifecycle events (state resets, pages
-- loaded, sweeps skipped, ...), per repeat, strategy and step.
CREATE TABLE metrics (
    run_key  INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat   INTEGER NOT NULL,
    step     INTEGER NOT NULL,
    strategy TEXT NOT NULL,
    name     TEXT NOT NULL,
    value    REAL NOT NULL,
    PRIMARY KEY (run_key, repeat, step, strategy, name)
) STRICT;

INSERT INTO steps (run_key, step, name) SELECT run_key, 0, 'run' FROM runs;

DROP VIEW event_log;

-- Events with every key spelled out: what analysts query.
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, e.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.usable_bytes, e.duration_ns, e.at_us
FROM events e
JOIN runs r ON r.run_key = e.run_key
LEFT JOIN steps st ON st.run_key = e.run_key AND st.step = e.step
JOIN subjects s ON s.subject_id = e.subject_id
JOIN event_kinds k ON k.kind_id = e.kind_id;

-- Samples with the run id and step name.
CREATE VIEW timeline AS
SELECT r.run_id, r.scenario, m.repeat, m.strategy, m.step AS step_index, st.name AS step,
       m.live_requested_bytes, m.live_usable_bytes, m.peak_requested_bytes, m.elapsed_ns
FROM samples m
JOIN runs r ON r.run_key = m.run_key
JOIN steps st ON st.run_key = m.run_key AND st.step = m.step;

-- Written once when a run completes: per (run, step, component, strategy, kind) over
-- all repeats, the event count, bytes, and latency (nearest-rank median and p90).
CREATE TABLE step_rollups (
    run_key            INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step               INTEGER NOT NULL,
    component          TEXT NOT NULL,
    strategy           TEXT NOT NULL,
    kind               TEXT NOT NULL,
    events             INTEGER NOT NULL,
    instances          INTEGER NOT NULL,           -- distinct (repeat, instance) pairs
    requested_bytes    INTEGER NOT NULL,
    usable_bytes       INTEGER NOT NULL,
    duration_ns_total  INTEGER NOT NULL,
    duration_ns_median INTEGER NOT NULL,
    duration_ns_p90    INTEGER NOT NULL,
    first_seq          INTEGER NOT NULL,           -- the first such event: orders strategies as measured
    PRIMARY KEY (run_key, step, component, strategy, kind)
) STRICT;

-- Written when a run with several repeats completes: per repeat, the nearest-rank
-- median duration of creating and realizing, so `profctl check` can test latencies
-- over the repeats without scanning events (with one repeat, step_rollups has it).
CREATE TABLE latency_rollups (
    run_key            INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step               INTEGER NOT NULL,
    component          TEXT NOT NULL,
    strategy           TEXT NOT NULL,
    kind               TEXT NOT NULL,
    repeat             INTEGER NOT NULL,
    events             INTEGER NOT NULL,
    duration_ns_median INTEGER NOT NULL,
    PRIMARY KEY (run_key, step, component, strategy, kind, repeat)
) STRICT;

-- ---------------------------------------------------------------------------------
-- One report view per kind of scenario. Each has run_id first, one row per strategy
-- (or per component and strategy) in the order the scenario measured them; counts
-- and bytes are per repeat (averaged over the run's repeats).
-- ---------------------------------------------------------------------------------

-- Step rollups with run ids, step names and the run's repeat count.
CREATE VIEW step_summary AS
SELECT r.run_id, r.run_key, r.scenario, r.report, st.name AS step, x.component, x.strategy, x.kind,
       x.events, x.instances, x.requested_bytes, x.usable_bytes,
       x.duration_ns_total, x.duration_ns_median, x.duration_ns_p90, x.first_seq,
       CAST(json_extract(r.parameters, '$.repeats') AS INTEGER) AS repeats
FROM step_rollups x
JOIN runs r ON r.run_key = x.run_key
JOIN steps st ON st.run_key = x.run_key AND st.step = x.step;

-- Metrics summed over steps, per repeat.
CREATE VIEW metric_summary AS
SELECT m.run_key, m.strategy, m.name,
       SUM(m.value) / CAST(json_extract(r.parameters, '$.repeats') AS REAL) AS value
FROM metrics m JOIN runs r ON r.run_key = m.run_key
GROUP BY m.run_key, m.strategy, m.name;

-- Samples per step name, averaged over repeats.
CREATE VIEW sample_summary AS
SELECT m.run_key, m.strategy, st.name AS step,
       AVG(m.live_requested_bytes) AS live_bytes, MAX(m.peak_requested_bytes) AS peak_bytes
FROM samples m JOIN steps st ON st.run_key = m.run_key AND st.step = m.step
GROUP BY m.run_key, m.strategy, st.name;

-- lazy-container (and any savings scenario): the savings table, plus the break-even
-- realization rate on the container-only `lazy` rows: lazy wins while fewer than this
-- share of containers are ever realized (1 - container / eager, in %).
CREATE VIEW savings_report AS
SELECT run_id, scenario, bytes_measure, component, strategy, instances, bytes_per_instance, baseline_strategy,
       saved_bytes, savings_pct,
       CASE WHEN strategy = 'lazy' THEN savings_pct END AS break_even_pct
FROM savings_by_measure
ORDER BY started_at, run_id, ordinal;

-- image-cache: lookups, what is live while shown, what stays after release and after
-- the idle turn, savings against no-cache while shown, and the sweep's work.
CREATE VIEW cache_report AS
WITH lookups AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
           SUM(CASE WHEN kind = 'hit' THEN events ELSE 0 END) AS hits,
           SUM(CASE WHEN kind = 'miss' THEN events ELSE 0 END) AS misses,
           SUM(CASE WHEN kind = 'evict' THEN events ELSE 0 END) AS evictions
    FROM step_summary WHERE report = 'image-cache'
    GROUP BY run_key, strategy
),
live AS (
    SELECT run_key, strategy,
           MAX(CASE WHEN step = 'show' THEN live_bytes END) AS shown,
           MAX(CASE WHEN step = 'release' THEN live_bytes END) AS after_release,
           MAX(CASE WHEN step = 'idle' THEN live_bytes END) AS after_idle
    FROM sample_summary GROUP BY run_key, strategy
)
SELECT l.run_id, l.strategy,
       l.hits / l.repeats AS hits,
       l.misses / l.repeats AS misses,
       ROUND(CAST(l.hits AS REAL) / NULLIF(l.hits + l.misses, 0), 4) AS hit_ratio,
       CAST(v.shown AS INTEGER) AS live_bytes_while_shown,
       CAST(v.after_release AS INTEGER) AS retained_bytes_after_release,
       CAST(v.after_idle AS INTEGER) AS retained_bytes_after_idle,
       CAST(b.shown - v.shown AS INTEGER) AS saved_bytes,
       ROUND(100.0 * (b.shown - v.shown) / NULLIF(b.shown, 0), 2) AS savings_pct,
       l.evictions / l.repeats AS evictions,
       (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps') AS sweeps,
       (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps_skipped') AS sweeps_skipped,
       ROUND((SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweep_ns') / 1e6, 3) AS sweep_ms
FROM lookups l
JOIN live v ON v.run_key = l.run_key AND v.strategy = l.strategy
LEFT JOIN live b ON b.run_key = l.run_key AND b.strategy = 'no-cache'
ORDER BY l.run_key, l.ordinal;

-- lazy-list: rows created and realized (at the top and in all), the most rows visible,
-- peak live bytes, live bytes once scrolled back to the top, nested state lost, pages loaded.
CREATE VIEW list_report AS
WITH counts AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
           SUM(CASE WHEN component = 'row' AND kind = 'create' THEN events ELSE 0 END) AS created,
           SUM(CASE WHEN component = 'row' AND kind = 'create' AND step = 'top' THEN events ELSE 0 END) AS created_at_top,
           SUM(CASE WHEN component = 'row-body' AND kind = 'realize' THEN events ELSE 0 END) AS realized,
           SUM(CASE WHEN component = 'row-body' AND kind = 'realize' AND step = 'top' THEN events ELSE 0 END) AS realized_at_top
    FROM step_summary WHERE report = 'lazy-list'
    GROUP BY run_key, strategy
),
live AS (
    SELECT run_key, strategy, MAX(peak_bytes) AS peak,
           MAX(CASE WHEN step = 'scroll-up' THEN live_bytes END) AS back_at_top
    FROM sample_summary GROUP BY run_key, strategy
)
SELECT c.run_id, c.strategy,
       c.created / c.repeats AS rows_created,
       c.created_at_top / c.repeats AS rows_created_at_top,
       c.realized / c.repeats AS realizations,
       c.realized_at_top / c.repeats AS rows_realized_at_top,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'max_visible') AS INTEGER) AS max_visible,
       v.peak AS peak_live_bytes,
       CAST(v.back_at_top AS INTEGER) AS live_bytes_back_at_top,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'nested_state_resets') AS INTEGER) AS nested_state_resets,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'pages_loaded') AS INTEGER) AS pages_loaded
FROM counts c
JOIN live v ON v.run_key = c.run_key AND v.strategy = c.strategy
ORDER BY c.run_key, c.ordinal;

-- composite-cell: bytes per cell and creation latency (nearest-rank median and p90) for
-- the first cell, later cells, and reuse.
CREATE VIEW cell_report AS
SELECT run_id, strategy,
       ROUND(CAST(SUM(CASE WHEN step = 'later' AND kind = 'create' THEN requested_bytes END) AS REAL)
             / SUM(CASE WHEN step = 'later' AND kind = 'create' THEN events END), 2) AS bytes_per_cell,
       SUM(CASE WHEN step = 'first' AND kind = 'create' THEN requested_bytes END) / MAX(repeats) AS first_cell_bytes,
       MAX(CASE WHEN step = 'first' AND kind = 'create' THEN duration_ns_median END) AS first_ns,
       MAX(CASE WHEN step = 'later' AND kind = 'create' THEN duration_ns_median END) AS later_median_ns,
       MAX(CASE WHEN step = 'later' AND kind = 'create' THEN duration_ns_p90 END) AS later_p90_ns,
       MAX(CASE WHEN step = 'reuse' AND kind = 'realize' THEN duration_ns_median END) AS reuse_median_ns,
       MAX(CASE WHEN step = 'reuse' AND kind = 'realize' THEN duration_ns_p90 END) AS reuse_p90_ns
FROM step_summary WHERE report = 'composite-cell'
GROUP BY run_key, strategy
ORDER BY run_key, MIN(first_seq);

-- identity: elements created on the first render and on the change (head insertion or
-- branch toggle), elements released by the change, item states reset, bytes per element.
CREATE VIEW identity_report AS
SELECT run_id, strategy,
       SUM(CASE WHEN step = 'initial' AND kind = 'create' THEN events ELSE 0 END) / MAX(repeats) AS created_initially,
       SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'create' THEN events ELSE 0 END) / MAX(repeats) AS created_on_change,
       SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'release' THEN events ELSE 0 END) / MAX(repeats) AS released_on_change,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = s.run_key AND m.strategy = s.strategy AND m.name = 'state_resets') AS INTEGER) AS state_resets,
       ROUND(CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS REAL)
             / NULLIF(SUM(CASE WHEN kind = 'create' THEN events ELSE 0 END), 0), 2) AS bytes_per_element
FROM step_summary s WHERE report = 'identity'
GROUP BY run_key, strategy
ORDER BY run_key, MIN(first_seq);

-- live-room: the whole page's bytes per strategy (every panel's create and realize),
-- panels opened, and for lazy the break-even realization rate next to the measured one.
CREATE VIEW live_room_report AS
WITH totals AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
           SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) / MAX(repeats) AS page_bytes,
           SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) / MAX(repeats) AS created_bytes
    FROM step_summary WHERE report = 'live-room'
    GROUP BY run_key, strategy
)
SELECT t.run_id, t.strategy,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels') AS INTEGER) AS panels,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened') AS INTEGER) AS opened,
       t.page_bytes,
       e.page_bytes - t.page_bytes AS saved_bytes,
       ROUND(100.0 * (e.page_bytes - t.page_bytes) / NULLIF(e.page_bytes, 0), 2) AS savings_pct,
       CASE WHEN t.strategy = 'lazy' THEN ROUND(100.0 * (1 - CAST(t.created_bytes AS REAL) / e.page_bytes), 2) END AS break_even_pct,
       CASE WHEN t.strategy = 'lazy' THEN ROUND(100.0 *
           (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')
           / (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels'), 2) END AS realized_pct
FROM totals t
LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
ORDER BY t.run_key, t.ordinal;
