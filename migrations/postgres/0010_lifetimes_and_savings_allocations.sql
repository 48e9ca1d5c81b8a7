-- profctl shared store, version 10: the lifetimes and size classes of each run (the
-- file's version 8, migrations/0008_lifetimes.sql), which `push` now copies with the run,
-- and `savings_by_measure` with allocations and temporary bytes per instance beside
-- retained bytes, as the file's version 17 (migrations/0017_savings_allocations.sql) has
-- it. Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Runs pushed before this version have no lifetimes: their temporary_bytes_per_instance
-- is NULL. The temporaries and size_classes views stay file-only for now.
CREATE TABLE lifetime_rollups (
    run_key                    BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component                  TEXT NOT NULL,
    strategy                   TEXT NOT NULL,
    kind                       TEXT NOT NULL,
    regions                    BIGINT NOT NULL CHECK (regions > 0),
    allocations                BIGINT NOT NULL,
    requested_bytes            BIGINT NOT NULL,
    usable_bytes               BIGINT NOT NULL,
    temporaries                BIGINT NOT NULL,
    temporary_requested_bytes  BIGINT NOT NULL,
    PRIMARY KEY (run_key, component, strategy, kind)
);

CREATE TABLE size_class_rollups (
    run_key          BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component        TEXT NOT NULL,
    strategy         TEXT NOT NULL,
    kind             TEXT NOT NULL,
    size_class       BIGINT NOT NULL CHECK (size_class BETWEEN 0 AND 63),
    allocations      BIGINT NOT NULL CHECK (allocations > 0),
    requested_bytes  BIGINT NOT NULL,
    usable_bytes     BIGINT NOT NULL,
    PRIMARY KEY (run_key, component, strategy, kind, size_class)
);

-- Replaced in place: the columns so far keep their names, types and order (savings,
-- savings_usable and the report views read them), the new ones come last.
CREATE OR REPLACE VIEW savings_by_measure AS
WITH per_instance AS (
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'requested' AS bytes_measure,
           CAST(requested_bytes AS DOUBLE PRECISION) / (instances * repeats) AS bytes,
           CAST(allocations AS DOUBLE PRECISION) / (instances * repeats) AS allocations,
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats) AS retains,
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats) AS releases
    FROM rollups
    UNION ALL
    SELECT run_key, component, strategy, ordinal, instances, repeats, 'usable',
           CAST(usable_bytes AS DOUBLE PRECISION) / (instances * repeats),
           CAST(allocations AS DOUBLE PRECISION) / (instances * repeats),
           CAST(retains AS DOUBLE PRECISION) / (instances * repeats),
           CAST(releases AS DOUBLE PRECISION) / (instances * repeats)
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
            THEN round(CAST(t.bytes AS DOUBLE PRECISION) / (x.instances * x.repeats), 2) END AS temporary_bytes_per_instance
FROM per_instance x
JOIN runs r ON r.run_key = x.run_key
LEFT JOIN per_instance b
       ON b.run_key = x.run_key AND b.bytes_measure = x.bytes_measure
      AND b.component = x.component AND b.strategy = r.baseline_strategy
LEFT JOIN built_temporaries t
       ON t.run_key = x.run_key AND t.component = x.component AND t.strategy = x.strategy;
