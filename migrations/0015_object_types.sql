-- profctl schema, version 15: Swift object types per measured instance (record --types).
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Every object swift_allocObject allocated inside the measured instances of one
-- (run, component, strategy, event kind), by type: objects, requested bytes, and the
-- objects and bytes still live when each instance's measurement ended (summed over
-- instances). Types are stored once for the whole database, by name (demangled,
-- module-qualified, generic arguments kept), so runs of different builds compare.
-- One row per (run, subject, kind) is the remainder, type '(not a Swift object)': the
-- blocks no object claims (C and Foundation buffers, malloc called directly), so that the
-- types of an instance always add up to its allocations and bytes exactly.

CREATE TABLE object_type_names (
    type_id INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE object_types (
    run_key              INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    subject_id           INTEGER NOT NULL REFERENCES subjects (subject_id),
    kind_id              INTEGER NOT NULL REFERENCES event_kinds (kind_id),
    type_id              INTEGER NOT NULL REFERENCES object_type_names (type_id),
    objects              INTEGER NOT NULL,  -- blocks, for the remainder row
    requested_bytes      INTEGER NOT NULL,
    live_objects         INTEGER NOT NULL,  -- still allocated when the measurement ended
    live_requested_bytes INTEGER NOT NULL,
    PRIMARY KEY (run_key, subject_id, kind_id, type_id)
) STRICT;

-- Runs recorded with --types.
CREATE TABLE object_type_runs (
    run_key INTEGER PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    types   INTEGER NOT NULL,  -- distinct types seen in the run (the remainder not counted)
    dropped INTEGER NOT NULL   -- objects that could not be logged (0 in a sound run)
) STRICT;

-- Types with every key spelled out, and the measured instances they were counted over
-- (the events of that component, strategy and kind): what analysts query.
CREATE VIEW types AS
WITH instances AS (
    SELECT s.run_key, s.subject_id, s.kind_id, count(*) AS instances
    FROM events e JOIN event_series s ON s.series_id = e.series_id
    GROUP BY s.run_key, s.subject_id, s.kind_id
)
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind, n.name AS type,
       n.name = '(not a Swift object)' AS remainder,
       coalesce(i.instances, 0) AS instances,
       t.objects, t.requested_bytes, t.live_objects, t.live_requested_bytes
FROM object_types t
JOIN runs r ON r.run_key = t.run_key
JOIN subjects s ON s.subject_id = t.subject_id
JOIN event_kinds k ON k.kind_id = t.kind_id
JOIN object_type_names n ON n.type_id = t.type_id
LEFT JOIN instances i ON i.run_key = t.run_key AND i.subject_id = t.subject_id AND i.kind_id = t.kind_id;
