-- profctl's PostgreSQL store, version 3: identity_report reads metric_summary once and
-- joins it, as the SQLite file's declared view does since the same change. Version 1's
-- view ran a subquery over metric_summary (itself an aggregate over every run's metrics)
-- for each row it returned, so reading it over a long history took seconds. Same columns,
-- types, rows and order. Never edit this file once it has shipped: add a new numbered
-- migration instead.

CREATE OR REPLACE VIEW identity_report AS
WITH changes AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
           CAST(SUM(CASE WHEN step = 'initial' AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_initially,
           CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_on_change,
           CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'release' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS released_on_change,
           round(CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS DOUBLE PRECISION)
                 / NULLIF(SUM(CASE WHEN kind = 'create' THEN events ELSE 0 END), 0), 2) AS bytes_per_element
    FROM step_summary WHERE report = 'identity'
    GROUP BY run_key, run_id, strategy
),
resets AS (
    SELECT run_key, strategy, value FROM metric_summary WHERE name = 'state_resets'
)
SELECT c.run_id, c.strategy, c.created_initially, c.created_on_change, c.released_on_change,
       CAST(trunc(r.value) AS BIGINT) AS state_resets, c.bytes_per_element
FROM changes c LEFT JOIN resets r ON r.run_key = c.run_key AND r.strategy = c.strategy
ORDER BY c.run_key, c.ordinal;
