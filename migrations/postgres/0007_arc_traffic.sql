-- profctl's PostgreSQL store, version 7: Swift's retains and releases per event, as the
-- SQLite schema's version 14 (migrations/0014_arc_traffic.sql), with the same names and
-- meaning. Never edit this file once it has shipped: add a new numbered migration instead.
--
-- NULL means "not counted", never 0: runs pushed before this version, and runs recorded
-- where ARC counting was unavailable.

ALTER TABLE runs ADD COLUMN arc_counting TEXT;
ALTER TABLE runs ADD COLUMN arc_toolchain TEXT;
ALTER TABLE events ADD COLUMN retains BIGINT;
ALTER TABLE events ADD COLUMN releases BIGINT;
ALTER TABLE rollups ADD COLUMN retains BIGINT;
ALTER TABLE rollups ADD COLUMN releases BIGINT;
ALTER TABLE step_rollups ADD COLUMN retains BIGINT;
ALTER TABLE step_rollups ADD COLUMN releases BIGINT;

-- The views get the new columns at their end: CREATE OR REPLACE keeps every column they
-- had, and the report views that read them.
CREATE OR REPLACE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.retains, e.releases
FROM events e
JOIN event_series x ON x.series_id = e.series_id
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id;

CREATE OR REPLACE VIEW event_rows AS
SELECT x.run_key, e.seq, x.repeat, x.step, x.subject_id, e.instance, x.kind_id,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.series_id, e.retains, e.releases
FROM events e
JOIN event_series x ON x.series_id = e.series_id;

CREATE OR REPLACE VIEW step_summary AS
SELECT r.run_id, r.run_key, r.scenario, r.report, st.name AS step, x.component, x.strategy, x.kind,
       x.events, x.instances, x.requested_bytes, x.usable_bytes,
       x.duration_ns_total, x.duration_ns_median, x.duration_ns_p90, x.first_seq,
       CAST(json_extract(r.parameters, '$.repeats') AS BIGINT) AS repeats,
       x.retains, x.releases
FROM step_rollups x
JOIN runs r ON r.run_key = x.run_key
JOIN steps st ON st.run_key = x.run_key AND st.step = x.step;

CREATE OR REPLACE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, 'requested' AS bytes_measure,
           CAST(requested_bytes AS DOUBLE PRECISION) / (instances * repeats) AS bytes,
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats) AS retains,
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats) AS releases
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, 'usable',
           CAST(usable_bytes AS DOUBLE PRECISION) / (instances * repeats),
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats),
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats)
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
       x.ordinal,
       round(x.retains, 2)                                        AS retains_per_instance,
       round(x.releases, 2)                                       AS releases_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy;

CREATE OR REPLACE VIEW savings AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct, retains_per_instance, releases_per_instance
FROM savings_by_measure
WHERE bytes_measure = 'requested'
ORDER BY started_at, run_id, ordinal;

CREATE OR REPLACE VIEW savings_usable AS
SELECT run_id, scenario, component, strategy, instances, bytes_per_instance,
       baseline_strategy, saved_bytes, savings_pct, retains_per_instance, releases_per_instance
FROM savings_by_measure
WHERE bytes_measure = 'usable'
ORDER BY started_at, run_id, ordinal;
