-- profctl's PostgreSQL store, version 1: the tables and views of the SQLite schema
-- (migrations/0001_initial.sql and 0002_steps_reports_ci.sql) with the same names and
-- columns, so analysts' queries and profctl's readers work on either store. Never edit
-- this file once it has shipped: add a new numbered migration instead.
--
-- Types: SQLite INTEGER is BIGINT here, REAL is DOUBLE PRECISION. Two SQLite functions
-- the views (and analysts) use are defined below with SQLite's meaning: round(x, n) on
-- double precision (half away from zero) and json_extract(text, '$.a.b').

CREATE FUNCTION round(value double precision, digits integer) RETURNS double precision
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT CAST(round(CAST(value AS numeric), digits) AS double precision) $$;

CREATE FUNCTION json_extract(document text, path text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT CAST(document AS jsonb) #>> string_to_array(substr(path, 3), '.') $$;

-- One recording of one scenario. run_id (a UUID) is the run's identity across stores:
-- `profctl push` adds a run only when its run_id is not here yet.
CREATE TABLE runs (
    run_key             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id              TEXT NOT NULL UNIQUE,
    scenario            TEXT NOT NULL,
    status              TEXT NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'complete', 'aborted')),
    started_at          TEXT NOT NULL,
    ended_at            TEXT,
    git_commit          TEXT,
    host                TEXT NOT NULL,
    os                  TEXT NOT NULL,
    arch                TEXT NOT NULL,
    swift_version       TEXT NOT NULL,
    build_configuration TEXT NOT NULL CHECK (build_configuration IN ('debug', 'release')),
    tool_version        TEXT NOT NULL,
    baseline_strategy   TEXT NOT NULL,
    parameters          TEXT NOT NULL DEFAULT '{}' CHECK (CAST(parameters AS jsonb) IS NOT NULL),
    process_id          BIGINT NOT NULL,
    error               TEXT,
    branch              TEXT,
    ci_provider         TEXT,
    ci_job              TEXT,
    pull_request        TEXT,
    report              TEXT NOT NULL DEFAULT 'savings'
);

CREATE INDEX runs_by_scenario ON runs (scenario, started_at);

CREATE TABLE subjects (
    subject_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    component  TEXT NOT NULL,
    strategy   TEXT NOT NULL,
    UNIQUE (component, strategy)
);

CREATE TABLE event_kinds (
    kind_id BIGINT PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE
);

INSERT INTO event_kinds (kind_id, name) VALUES
    (0, 'create'), (1, 'realize'), (2, 'hit'), (3, 'miss'), (4, 'evict'), (5, 'release');

-- Events carry no foreign keys: PostgreSQL checks each one per row with a trigger, which
-- made COPY 5.5 times slower (20,000 against 110,000 events/s, scripts/bench-push).
-- `profctl push` writes a run's events only in the transaction that inserts the run,
-- with subject and kind ids read from this store; deleting a run deletes its events
-- (the trigger below stands in for ON DELETE CASCADE).
CREATE TABLE events (
    run_key         BIGINT NOT NULL,
    seq             BIGINT NOT NULL,
    repeat          BIGINT NOT NULL,
    subject_id      BIGINT NOT NULL,
    instance        BIGINT NOT NULL,
    kind_id         BIGINT NOT NULL,
    allocations     BIGINT NOT NULL,
    frees           BIGINT NOT NULL,
    requested_bytes BIGINT NOT NULL,
    usable_bytes    BIGINT NOT NULL,
    duration_ns     BIGINT NOT NULL,
    step            BIGINT NOT NULL DEFAULT 0,
    at_us           BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (run_key, seq)
);

CREATE FUNCTION delete_run_events() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN DELETE FROM events WHERE run_key = OLD.run_key; RETURN OLD; END $$;

CREATE TRIGGER runs_delete_events AFTER DELETE ON runs FOR EACH ROW EXECUTE FUNCTION delete_run_events();

CREATE TABLE rollups (
    run_key                   BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component                 TEXT NOT NULL,
    strategy                  TEXT NOT NULL,
    ordinal                   BIGINT NOT NULL,
    instances                 BIGINT NOT NULL CHECK (instances > 0),
    repeats                   BIGINT NOT NULL CHECK (repeats > 0),
    allocations               BIGINT NOT NULL,
    requested_bytes           BIGINT NOT NULL,
    usable_bytes              BIGINT NOT NULL,
    min_instance_requested    BIGINT NOT NULL,
    max_instance_requested    BIGINT NOT NULL,
    min_instance_usable       BIGINT NOT NULL,
    max_instance_usable       BIGINT NOT NULL,
    released_requested_bytes  BIGINT NOT NULL,
    released_usable_bytes     BIGINT NOT NULL,
    PRIMARY KEY (run_key, component, strategy)
);

CREATE TABLE baselines (
    name       TEXT NOT NULL,
    scenario   TEXT NOT NULL,
    run_id     TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (name, scenario)
);

CREATE TABLE steps (
    run_key BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step    BIGINT NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (run_key, step),
    UNIQUE (run_key, name)
);

CREATE TABLE samples (
    run_key              BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat               BIGINT NOT NULL,
    strategy             TEXT NOT NULL,
    step                 BIGINT NOT NULL,
    live_requested_bytes BIGINT NOT NULL,
    live_usable_bytes    BIGINT NOT NULL,
    peak_requested_bytes BIGINT NOT NULL,
    elapsed_ns           BIGINT NOT NULL,
    PRIMARY KEY (run_key, repeat, strategy, step)
);

CREATE TABLE metrics (
    run_key  BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    repeat   BIGINT NOT NULL,
    step     BIGINT NOT NULL,
    strategy TEXT NOT NULL,
    name     TEXT NOT NULL,
    value    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (run_key, repeat, step, strategy, name)
);

CREATE TABLE step_rollups (
    run_key            BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step               BIGINT NOT NULL,
    component          TEXT NOT NULL,
    strategy           TEXT NOT NULL,
    kind               TEXT NOT NULL,
    events             BIGINT NOT NULL,
    instances          BIGINT NOT NULL,
    requested_bytes    BIGINT NOT NULL,
    usable_bytes       BIGINT NOT NULL,
    duration_ns_total  BIGINT NOT NULL,
    duration_ns_median BIGINT NOT NULL,
    duration_ns_p90    BIGINT NOT NULL,
    first_seq          BIGINT NOT NULL,
    PRIMARY KEY (run_key, step, component, strategy, kind)
);

CREATE TABLE latency_rollups (
    run_key            BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    step               BIGINT NOT NULL,
    component          TEXT NOT NULL,
    strategy           TEXT NOT NULL,
    kind               TEXT NOT NULL,
    repeat             BIGINT NOT NULL,
    events             BIGINT NOT NULL,
    duration_ns_median BIGINT NOT NULL,
    PRIMARY KEY (run_key, step, component, strategy, kind, repeat)
);

-- ---------------------------------------------------------------------------------
-- Views: the same names, columns and rows as SQLite's (docs/schema.md). Sums are cast
-- back to BIGINT (PostgreSQL widens them to numeric) and doubles truncated where
-- SQLite's CAST(... AS INTEGER) truncates.
-- ---------------------------------------------------------------------------------

CREATE VIEW event_log AS
SELECT r.run_id, e.seq, e.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.usable_bytes, e.duration_ns, e.at_us
FROM events e
JOIN runs r ON r.run_key = e.run_key
LEFT JOIN steps st ON st.run_key = e.run_key AND st.step = e.step
JOIN subjects s ON s.subject_id = e.subject_id
JOIN event_kinds k ON k.kind_id = e.kind_id;

CREATE VIEW timeline AS
SELECT r.run_id, r.scenario, m.repeat, m.strategy, m.step AS step_index, st.name AS step,
       m.live_requested_bytes, m.live_usable_bytes, m.peak_requested_bytes, m.elapsed_ns
FROM samples m
JOIN runs r ON r.run_key = m.run_key
JOIN steps st ON st.run_key = m.run_key AND st.step = m.step;

CREATE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, 'requested' AS bytes_measure,
           CAST(requested_bytes AS DOUBLE PRECISION) / (instances * repeats) AS bytes
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, 'usable',
           CAST(usable_bytes AS DOUBLE PRECISION) / (instances * repeats)
    FROM rollups
)
SELECT r.run_id,
       r.scenario,
       x.bytes_measure,
       x.component,
       x.strategy,
       x.instances,
       round(x.bytes, 2)                                          AS bytes_per_instance,
       r.baseline_strategy,
       round(b.bytes - x.bytes, 2)                                AS saved_bytes,
       round(100.0 * (b.bytes - x.bytes) / NULLIF(b.bytes, 0), 2) AS savings_pct,
       r.started_at,
       x.ordinal
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy;

CREATE VIEW savings AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct
FROM savings_by_measure
WHERE bytes_measure = 'requested'
ORDER BY started_at, run_id, ordinal;

CREATE VIEW savings_usable AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct
FROM savings_by_measure
WHERE bytes_measure = 'usable'
ORDER BY started_at, run_id, ordinal;

CREATE VIEW step_summary AS
SELECT r.run_id, r.run_key, r.scenario, r.report, st.name AS step, x.component, x.strategy, x.kind,
       x.events, x.instances, x.requested_bytes, x.usable_bytes,
       x.duration_ns_total, x.duration_ns_median, x.duration_ns_p90, x.first_seq,
       CAST(json_extract(r.parameters, '$.repeats') AS BIGINT) AS repeats
FROM step_rollups x
JOIN runs r ON r.run_key = x.run_key
JOIN steps st ON st.run_key = x.run_key AND st.step = x.step;

CREATE VIEW metric_summary AS
SELECT m.run_key, m.strategy, m.name,
       SUM(m.value) / CAST(json_extract(MAX(r.parameters), '$.repeats') AS DOUBLE PRECISION) AS value
FROM metrics m JOIN runs r ON r.run_key = m.run_key
GROUP BY m.run_key, m.strategy, m.name;

CREATE VIEW sample_summary AS
SELECT m.run_key, m.strategy, st.name AS step,
       CAST(AVG(m.live_requested_bytes) AS DOUBLE PRECISION) AS live_bytes, MAX(m.peak_requested_bytes) AS peak_bytes
FROM samples m JOIN steps st ON st.run_key = m.run_key AND st.step = m.step
GROUP BY m.run_key, m.strategy, st.name;

CREATE VIEW savings_report AS
SELECT run_id, scenario, bytes_measure, component, strategy, instances, bytes_per_instance, baseline_strategy,
       saved_bytes, savings_pct,
       CASE WHEN strategy = 'lazy' AND savings_pct > 0 THEN savings_pct END AS break_even_pct
FROM savings_by_measure
ORDER BY started_at, run_id, ordinal;

CREATE VIEW cache_report AS
WITH lookups AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
           CAST(SUM(CASE WHEN kind = 'hit' THEN events ELSE 0 END) AS BIGINT) AS hits,
           CAST(SUM(CASE WHEN kind = 'miss' THEN events ELSE 0 END) AS BIGINT) AS misses,
           CAST(SUM(CASE WHEN kind = 'evict' THEN events ELSE 0 END) AS BIGINT) AS evictions
    FROM step_summary WHERE report = 'image-cache'
    GROUP BY run_key, run_id, strategy
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
       round(CAST(l.hits AS DOUBLE PRECISION) / NULLIF(l.hits + l.misses, 0), 4) AS hit_ratio,
       CAST(trunc(v.shown) AS BIGINT) AS live_bytes_while_shown,
       CAST(trunc(v.after_release) AS BIGINT) AS retained_bytes_after_release,
       CAST(trunc(v.after_idle) AS BIGINT) AS retained_bytes_after_idle,
       CAST(trunc(b.shown - v.shown) AS BIGINT) AS saved_bytes,
       round(100.0 * (b.shown - v.shown) / NULLIF(b.shown, 0), 2) AS savings_pct,
       l.evictions / l.repeats AS evictions,
       (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps') AS sweeps,
       (SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweeps_skipped') AS sweeps_skipped,
       round((SELECT value FROM metric_summary m WHERE m.run_key = l.run_key AND m.strategy = l.strategy AND m.name = 'sweep_ns') / 1e6, 3) AS sweep_ms
FROM lookups l
JOIN live v ON v.run_key = l.run_key AND v.strategy = l.strategy
LEFT JOIN live b ON b.run_key = l.run_key AND b.strategy = 'no-cache'
ORDER BY l.run_key, l.ordinal;

CREATE VIEW list_report AS
WITH counts AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
           CAST(SUM(CASE WHEN component = 'row' AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) AS created,
           CAST(SUM(CASE WHEN component = 'row' AND kind = 'create' AND step = 'top' THEN events ELSE 0 END) AS BIGINT) AS created_at_top,
           CAST(SUM(CASE WHEN component = 'row-body' AND kind = 'realize' THEN events ELSE 0 END) AS BIGINT) AS realized,
           CAST(SUM(CASE WHEN component = 'row-body' AND kind = 'realize' AND step = 'top' THEN events ELSE 0 END) AS BIGINT) AS realized_at_top
    FROM step_summary WHERE report = 'lazy-list'
    GROUP BY run_key, run_id, strategy
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
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'max_visible')) AS BIGINT) AS max_visible,
       v.peak AS peak_live_bytes,
       CAST(trunc(v.back_at_top) AS BIGINT) AS live_bytes_back_at_top,
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'nested_state_resets')) AS BIGINT) AS nested_state_resets,
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'pages_loaded')) AS BIGINT) AS pages_loaded
FROM counts c
JOIN live v ON v.run_key = c.run_key AND v.strategy = c.strategy
ORDER BY c.run_key, c.ordinal;

CREATE VIEW cell_report AS
SELECT run_id, strategy,
       round(CAST(SUM(CASE WHEN step = 'later' AND kind = 'create' THEN requested_bytes END) AS DOUBLE PRECISION)
             / SUM(CASE WHEN step = 'later' AND kind = 'create' THEN events END), 2) AS bytes_per_cell,
       CAST(SUM(CASE WHEN step = 'first' AND kind = 'create' THEN requested_bytes END) AS BIGINT) / MAX(repeats) AS first_cell_bytes,
       MAX(CASE WHEN step = 'first' AND kind = 'create' THEN duration_ns_median END) AS first_ns,
       MAX(CASE WHEN step = 'later' AND kind = 'create' THEN duration_ns_median END) AS later_median_ns,
       MAX(CASE WHEN step = 'later' AND kind = 'create' THEN duration_ns_p90 END) AS later_p90_ns,
       MAX(CASE WHEN step = 'reuse' AND kind = 'realize' THEN duration_ns_median END) AS reuse_median_ns,
       MAX(CASE WHEN step = 'reuse' AND kind = 'realize' THEN duration_ns_p90 END) AS reuse_p90_ns
FROM step_summary WHERE report = 'composite-cell'
GROUP BY run_key, run_id, strategy
ORDER BY run_key, MIN(first_seq);

CREATE VIEW identity_report AS
SELECT run_id, strategy,
       CAST(SUM(CASE WHEN step = 'initial' AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_initially,
       CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_on_change,
       CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'release' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS released_on_change,
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = s.run_key AND m.strategy = s.strategy AND m.name = 'state_resets')) AS BIGINT) AS state_resets,
       round(CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS DOUBLE PRECISION)
             / NULLIF(SUM(CASE WHEN kind = 'create' THEN events ELSE 0 END), 0), 2) AS bytes_per_element
FROM step_summary s WHERE report = 'identity'
GROUP BY run_key, run_id, strategy
ORDER BY run_key, MIN(first_seq);

CREATE VIEW live_room_report AS
WITH totals AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
           CAST(SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS page_bytes,
           CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_bytes
    FROM step_summary WHERE report = 'live-room'
    GROUP BY run_key, run_id, strategy
)
SELECT t.run_id, t.strategy,
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels')) AS BIGINT) AS panels,
       CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')) AS BIGINT) AS opened,
       t.page_bytes,
       e.page_bytes - t.page_bytes AS saved_bytes,
       round(100.0 * CAST(e.page_bytes - t.page_bytes AS DOUBLE PRECISION) / NULLIF(e.page_bytes, 0), 2) AS savings_pct,
       CASE WHEN t.strategy = 'lazy' AND t.created_bytes < e.page_bytes
            THEN round(100.0 * (1 - CAST(t.created_bytes AS DOUBLE PRECISION) / e.page_bytes), 2) END AS break_even_pct,
       CASE WHEN t.strategy = 'lazy' THEN round(100.0 *
           (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')
           / (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels'), 2) END AS realized_pct
FROM totals t
LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
ORDER BY t.run_key, t.ordinal;
