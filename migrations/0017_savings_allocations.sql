-- profctl schema, version 17: savings in allocations and temporary bytes per instance
-- beside retained bytes. Never edit this file once it has shipped: add a new numbered
-- migration instead.
--
-- Two ways of building a component can retain the same bytes and still cost very
-- differently to build: one decoder makes three times the allocations of another and
-- frees most of them before it returns. `bytes_per_instance` shows only what stays, so
-- `savings_by_measure` gains, after its columns so far (version 14's retains and releases
-- per instance included) (the views that read it keep theirs):
--   allocations_per_instance      malloc calls in an instance's create and realize events
--                                 (rollups.allocations: what stays and what did not);
--   temporary_bytes_per_instance  requested bytes of the blocks those events freed again
--                                 before they ended (lifetime_rollups, version 8), on the
--                                 `requested` rows only: the hooks keep no usable size for
--                                 temporaries, so the `usable` rows have NULL; NULL too for
--                                 runs recorded before version 8, which have no lifetimes.
DROP VIEW savings_by_measure;

CREATE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'requested' AS bytes_measure,
           CAST(requested_bytes AS REAL) / (instances * repeats) AS bytes,
           CAST(allocations AS REAL) / (instances * repeats) AS allocations,
           CAST(retains AS REAL) / (instances * repeats) AS retains,
           CAST(releases AS REAL) / (instances * repeats) AS releases
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'usable',
           CAST(usable_bytes AS REAL) / (instances * repeats),
           CAST(allocations AS REAL) / (instances * repeats),
           CAST(retains AS REAL) / (instances * repeats),
           CAST(releases AS REAL) / (instances * repeats)
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
            THEN ROUND(CAST(t.bytes AS REAL) / (x.instances * x.repeats), 2) END AS temporary_bytes_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy
LEFT JOIN built_temporaries t
       ON t.run_key = x.run_key AND t.component = x.component AND t.strategy = x.strategy;
