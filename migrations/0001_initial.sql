-- profctl schema, version 1: runs, lifecycle events, per-run rollups, and the
-- `savings` views that analysts query. Never edit this file once it has shipped:
-- add a new numbered migration instead.

-- One recording of one scenario.
CREATE TABLE runs (
    run_key             INTEGER PRIMARY KEY,       -- this database's key; compact in events
    run_id              TEXT NOT NULL UNIQUE,      -- UUID: the run's identity across databases
    scenario            TEXT NOT NULL,
    status              TEXT NOT NULL DEFAULT 'running'
                        CHECK (status IN ('running', 'complete', 'aborted')),
    started_at          TEXT NOT NULL,             -- ISO 8601, UTC
    ended_at            TEXT,
    git_commit          TEXT,                      -- GIT_COMMIT, GITHUB_SHA or git rev-parse HEAD
    host                TEXT NOT NULL,
    os                  TEXT NOT NULL,
    arch                TEXT NOT NULL,
    swift_version       TEXT NOT NULL,
    build_configuration TEXT NOT NULL CHECK (build_configuration IN ('debug', 'release')),
    tool_version        TEXT NOT NULL,
    baseline_strategy   TEXT NOT NULL,             -- what savings are measured against
    parameters          TEXT NOT NULL DEFAULT '{}' -- JSON object: instances, repeats, ...
                        CHECK (json_valid(parameters)),
    process_id          INTEGER NOT NULL,
    error               TEXT                       -- why an aborted run stopped
) STRICT;

CREATE INDEX runs_by_scenario ON runs (scenario, started_at);


-- What is measured: a component built with a strategy, named once per database.
CREATE TABLE subjects (
    subject_id INTEGER PRIMARY KEY,
    component  TEXT NOT NULL,
    strategy   TEXT NOT NULL,
    UNIQUE (component, strategy)
) STRICT;

-- The lifecycle event kinds, by the small integer events store.
CREATE TABLE event_kinds (
    kind_id INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE
) STRICT;

INSERT INTO event_kinds (kind_id, name) VALUES
    (0, 'create'), (1, 'realize'), (2, 'hit'), (3, 'miss'), (4, 'evict'), (5, 'release');

-- One lifecycle event of one instance of a component built one way. Integer keys keep
-- a row small: the event_log view spells them out.
-- requested_bytes / usable_bytes: the change in live heap bytes the event caused,
-- as measured by the allocation hooks (negative for a release).
CREATE TABLE events (
    run_key         INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,              -- order within the run
    repeat          INTEGER NOT NULL,              -- 0-based repetition of the scenario
    subject_id      INTEGER NOT NULL REFERENCES subjects (subject_id),
    instance        INTEGER NOT NULL,              -- 0-based within (repeat, subject)
    kind_id         INTEGER NOT NULL REFERENCES event_kinds (kind_id),
    allocations     INTEGER NOT NULL,
    frees           INTEGER NOT NULL,
    requested_bytes INTEGER NOT NULL,
    usable_bytes    INTEGER NOT NULL,
    duration_ns     INTEGER NOT NULL,              -- monotonic clock, around the measured work
    PRIMARY KEY (run_key, seq)
) STRICT, WITHOUT ROWID;

-- Events with every key spelled out: what analysts query.
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, e.repeat, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.usable_bytes, e.duration_ns
FROM events e
JOIN runs r ON r.run_key = e.run_key
JOIN subjects s ON s.subject_id = e.subject_id
JOIN event_kinds k ON k.kind_id = e.kind_id;

-- Written once when a run completes, so reports never scan raw events.
-- instances: instances per repeat; *_bytes are totals over all repeats of the
-- live bytes each instance holds (its create and realize events).
CREATE TABLE rollups (
    run_key                   INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component                 TEXT NOT NULL,
    strategy                  TEXT NOT NULL,
    ordinal                   INTEGER NOT NULL,   -- order the scenario measured them in
    instances                 INTEGER NOT NULL CHECK (instances > 0),
    repeats                   INTEGER NOT NULL CHECK (repeats > 0),
    allocations               INTEGER NOT NULL,
    requested_bytes           INTEGER NOT NULL,
    usable_bytes              INTEGER NOT NULL,
    min_instance_requested    INTEGER NOT NULL,   -- equal to max when every instance cost the same
    max_instance_requested    INTEGER NOT NULL,
    min_instance_usable       INTEGER NOT NULL,
    max_instance_usable       INTEGER NOT NULL,
    released_requested_bytes  INTEGER NOT NULL,   -- given back by release events (positive)
    released_usable_bytes     INTEGER NOT NULL,
    PRIMARY KEY (run_key, component, strategy)
) STRICT;

-- Bytes per instance and savings against the run's baseline strategy, in both
-- measures: `requested` (what the code asked malloc for) and `usable` (what malloc
-- handed back, rounded up to its size classes).
CREATE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, 'requested' AS bytes_measure,
           CAST(requested_bytes AS REAL) / (instances * repeats) AS bytes
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, 'usable',
           CAST(usable_bytes AS REAL) / (instances * repeats)
    FROM rollups
)
SELECT r.run_id,
       r.scenario,
       x.bytes_measure,
       x.component,
       x.strategy,
       x.instances,
       ROUND(x.bytes, 2)                                          AS bytes_per_instance,
       r.baseline_strategy,
       ROUND(b.bytes - x.bytes, 2)                                AS saved_bytes,
       ROUND(100.0 * (b.bytes - x.bytes) / NULLIF(b.bytes, 0), 2) AS savings_pct,
       r.started_at,
       x.ordinal
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy;

-- The public contract for analysts: savings in requested bytes...
CREATE VIEW savings AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct
FROM savings_by_measure
WHERE bytes_measure = 'requested'
ORDER BY started_at, run_id, ordinal;

-- ...and in usable bytes.
CREATE VIEW savings_usable AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct
FROM savings_by_measure
WHERE bytes_measure = 'usable'
ORDER BY started_at, run_id, ordinal;
