-- profctl schema, version 18: the peak of live bytes per event, beside what it kept
-- (issue 27, "Peak, not only what is kept"). Never edit this file once it has shipped:
-- add a new numbered migration instead.
--
-- An event's region keeps some bytes (requested_bytes) and may have held more on the way:
-- its own allocations less its own frees at the highest point, in requested bytes, as the
-- allocation hooks measure it (docs/hooks.md, "Peak"). Two ways that keep the same bytes
-- can differ here by the temporaries they build (a decoder's scratch buffers).
--
-- NULL means "not measured", never 0: runs recorded before this version hold NULL in
-- every peak column, and the per-instance figure derived from them is NULL too.

-- Per event: the highest live requested bytes of its measured region.
ALTER TABLE events ADD COLUMN peak_requested_bytes INTEGER;

-- Per (run, component, strategy): the instances' create and realize events' peaks summed,
-- as requested_bytes sums what they kept.
ALTER TABLE rollups ADD COLUMN peak_requested_bytes INTEGER;

-- The views that carry events or per-instance figures get the new column at their end
-- (every column they had keeps its name, place and meaning).
DROP VIEW event_log;
CREATE VIEW event_log AS
SELECT r.run_id, e.seq, x.repeat, COALESCE(st.name, 'run') AS step, s.component, s.strategy, e.instance, k.name AS kind,
       e.allocations, e.frees, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes AS usable_bytes, e.duration_ns, e.at_us,
       e.retains, e.releases, e.peak_requested_bytes
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
       e.series_id, e.retains, e.releases, e.peak_requested_bytes
FROM events e
JOIN event_series x ON x.series_id = e.series_id;

-- savings_by_measure: version 17's columns, then peak_bytes_per_instance, the instances'
-- create and realize events' peaks per instance, on the `requested` rows only (the hooks
-- keep the peak in requested bytes; the `usable` rows have NULL).
DROP VIEW savings_by_measure;
CREATE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'requested' AS bytes_measure,
           CAST(requested_bytes AS REAL) / (instances * repeats) AS bytes,
           CAST(allocations AS REAL) / (instances * repeats) AS allocations,
           CAST(retains AS REAL) / (instances * repeats) AS retains,
           CAST(releases AS REAL) / (instances * repeats) AS releases,
           CAST(peak_requested_bytes AS REAL) / (instances * repeats) AS peak
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'usable',
           CAST(usable_bytes AS REAL) / (instances * repeats),
           CAST(allocations AS REAL) / (instances * repeats),
           CAST(retains AS REAL) / (instances * repeats),
           CAST(releases AS REAL) / (instances * repeats),
           NULL
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
       ROUND(x.bytes, 2)                                          AS bytes_per_instance,
       r.baseline_strategy,
       ROUND(b.bytes - x.bytes, 2)                                AS saved_bytes,
       ROUND(100.0 * (b.bytes - x.bytes) / NULLIF(b.bytes, 0), 2) AS savings_pct,
       r.started_at,
       x.ordinal,
       ROUND(x.retains, 2)                                        AS retains_per_instance,
       ROUND(x.releases, 2)                                       AS releases_per_instance,
       ROUND(x.allocations, 2)                                    AS allocations_per_instance,
       CASE WHEN x.bytes_measure = 'requested'
            THEN ROUND(CAST(t.bytes AS REAL) / (x.instances * x.repeats), 2) END AS temporary_bytes_per_instance,
       ROUND(x.peak, 2)                                           AS peak_bytes_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy
LEFT JOIN built_temporaries t
       ON t.run_key = x.run_key AND t.component = x.component AND t.strategy = x.strategy;
