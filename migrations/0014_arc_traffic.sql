-- profctl schema, version 14: Swift's retains and releases, stored per event like
-- allocations (issue 24, "ARC traffic"). Never edit this file once it has shipped: add a
-- new numbered migration instead.
--
-- NULL means "not counted", never 0: the runs recorded before this version, and runs
-- recorded where ARC counting was unavailable (another Swift runtime), hold NULL in every
-- retains and releases column, and the per-instance figures derived from them are NULL too.

-- How the run's retains and releases were counted, and on which toolchain: `check` refuses
-- to compare two runs counted two ways (exit 6). NULL: not counted.
ALTER TABLE runs ADD COLUMN arc_counting TEXT;   -- e.g. runtime-hooks (docs/hooks.md, "ARC traffic")
ALTER TABLE runs ADD COLUMN arc_toolchain TEXT;  -- the Swift runtime counted, e.g. 6.3.1 x86_64

-- Per event: swift_retain/swift_release calls (and their _n variants, counted n) made by
-- the event's measured work.
ALTER TABLE events ADD COLUMN retains INTEGER;
ALTER TABLE events ADD COLUMN releases INTEGER;

-- Per (run, component, strategy): over the instances' create and realize events, as
-- allocations.
ALTER TABLE rollups ADD COLUMN retains INTEGER;
ALTER TABLE rollups ADD COLUMN releases INTEGER;

-- Per (run, step, component, strategy, kind): over its events.
ALTER TABLE step_rollups ADD COLUMN retains INTEGER;
ALTER TABLE step_rollups ADD COLUMN releases INTEGER;

-- The views that carry events or per-instance figures get the new columns at their end
-- (every column they had keeps its name, place and meaning).
DROP VIEW event_log;
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.retains, e.releases
FROM event_series x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
CROSS JOIN events e ON e.series_id = x.series_id;

DROP VIEW event_rows;
CREATE VIEW event_rows AS
SELECT x.run_key, e.seq, x.repeat, x.step, x.subject_id, e.instance, x.kind_id,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.series_id, e.retains, e.releases
FROM events e
JOIN event_series x ON x.series_id = e.series_id;

DROP VIEW step_summary;
CREATE VIEW step_summary AS
SELECT r.run_id, r.run_key, r.scenario, r.report, st.name AS step, x.component, x.strategy, x.kind,
       x.events, x.instances, x.requested_bytes, x.usable_bytes,
       x.duration_ns_total, x.duration_ns_median, x.duration_ns_p90, x.first_seq,
       CAST(json_extract(r.parameters, '$.repeats') AS INTEGER) AS repeats,
       x.retains, x.releases
FROM step_rollups x
JOIN runs r ON r.run_key = x.run_key
JOIN steps st ON st.run_key = x.run_key AND st.step = x.step;

-- Retains and releases per instance (its create and realize events), averaged over
-- instances and repeats, 2 decimals; the same in both byte measures.
DROP VIEW savings;
DROP VIEW savings_usable;
DROP VIEW savings_by_measure;
CREATE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, 'requested' AS bytes_measure,
           CAST(requested_bytes AS REAL) / (instances * repeats) AS bytes,
           CAST(retains AS REAL) / (instances * repeats) AS retains, CAST(releases AS REAL) / (instances * repeats) AS releases
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, 'usable',
           CAST(usable_bytes AS REAL) / (instances * repeats),
           CAST(retains AS REAL) / (instances * repeats), CAST(releases AS REAL) / (instances * repeats)
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
       x.ordinal,
       ROUND(x.retains, 2)                                        AS retains_per_instance,
       ROUND(x.releases, 2)                                       AS releases_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy;

CREATE VIEW savings AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct, retains_per_instance, releases_per_instance
FROM savings_by_measure
WHERE bytes_measure = 'requested'
ORDER BY started_at, run_id, ordinal;

CREATE VIEW savings_usable AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct, retains_per_instance, releases_per_instance
FROM savings_by_measure
WHERE bytes_measure = 'usable'
ORDER BY started_at, run_id, ordinal;
