-- profctl's PostgreSQL store, version 11: the peak of live bytes per event, as the SQLite
-- schema's version 18 (migrations/0018_peak_bytes.sql), with the same names and meaning.
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- NULL means "not measured", never 0: runs pushed before this version.

ALTER TABLE events ADD COLUMN peak_requested_bytes BIGINT;
ALTER TABLE rollups ADD COLUMN peak_requested_bytes BIGINT;

-- The views get the new column at their end: CREATE OR REPLACE keeps every column they
-- had, and the report views that read them.
CREATE OR REPLACE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.retains, e.releases, e.peak_requested_bytes
FROM events e
JOIN event_series x ON x.series_id = e.series_id
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN steps st ON st.run_key = x.run_key AND st.step = x.step
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id;

CREATE OR REPLACE VIEW event_rows AS
SELECT x.run_key, e.seq, x.repeat, x.step, x.subject_id, e.instance, x.kind_id,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.series_id, e.retains, e.releases, e.peak_requested_bytes
FROM events e
JOIN event_series x ON x.series_id = e.series_id;

CREATE OR REPLACE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'requested' AS bytes_measure,
           CAST(requested_bytes AS DOUBLE PRECISION) / (instances * repeats) AS bytes,
           CAST(allocations AS DOUBLE PRECISION) / (instances * repeats) AS allocations,
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats) AS retains,
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats) AS releases,
           CAST(peak_requested_bytes AS DOUBLE PRECISION) / (instances * repeats) AS peak
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'usable',
           CAST(usable_bytes AS DOUBLE PRECISION) / (instances * repeats),
           CAST(allocations AS DOUBLE PRECISION) / (instances * repeats),
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats),
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats),
           CAST(NULL AS DOUBLE PRECISION)
    FROM rollups
),
built_temporaries AS (
    SELECT run_key, component, strategy, SUM(temporary_requested_bytes) AS bytes
    FROM lifetime_rollups
    WHERE kind IN ('create', 'realize')
    GROUP BY run_key, component, strategy
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
       round(x.releases, 2)                                       AS releases_per_instance,
       round(x.allocations, 2)                                    AS allocations_per_instance,
       CASE WHEN x.bytes_measure = 'requested'
            THEN round(CAST(t.bytes AS DOUBLE PRECISION) / (x.instances * x.repeats), 2) END AS temporary_bytes_per_instance,
       round(x.peak, 2)                                           AS peak_bytes_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy
LEFT JOIN built_temporaries t
       ON t.run_key = x.run_key AND t.component = x.component AND t.strategy = x.strategy;
