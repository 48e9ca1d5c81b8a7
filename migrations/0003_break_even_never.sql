-- profctl schema, version 3: a break-even realization rate exists only where lazy can
-- win. Where the container costs as much as the component or more (savings at or below
-- zero), lazy never wins, and `break_even_pct` is NULL rather than a negative share;
-- profctl's reports print it as "never" on lazy rows. Never edit this file once it has
-- shipped: add a new numbered migration instead.

DROP VIEW savings_report;

-- lazy-container (and any savings scenario): the savings table, plus the break-even
-- realization rate on the container-only `lazy` rows: lazy wins while fewer than this
-- share of containers are ever realized (1 - container / eager, in %); NULL when it never wins.
CREATE VIEW savings_report AS
SELECT run_id, scenario, bytes_measure, component, strategy, instances, bytes_per_instance, baseline_strategy,
       saved_bytes, savings_pct,
       CASE WHEN strategy = 'lazy' AND savings_pct > 0 THEN savings_pct END AS break_even_pct
FROM savings_by_measure
ORDER BY started_at, run_id, ordinal;

DROP VIEW live_room_report;

-- live-room: the whole page's bytes per strategy (every panel's create and realize),
-- panels opened, and for lazy the break-even realization rate next to the measured one
-- (NULL when the containers alone cost as much as the eager page: lazy never wins).
CREATE VIEW live_room_report AS
WITH totals AS (
    SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
           SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) / MAX(repeats) AS page_bytes,
           SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) / MAX(repeats) AS created_bytes
    FROM step_summary WHERE report = 'live-room'
    GROUP BY run_key, strategy
)
SELECT t.run_id, t.strategy,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels') AS INTEGER) AS panels,
       CAST((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened') AS INTEGER) AS opened,
       t.page_bytes,
       e.page_bytes - t.page_bytes AS saved_bytes,
       ROUND(100.0 * (e.page_bytes - t.page_bytes) / NULLIF(e.page_bytes, 0), 2) AS savings_pct,
       CASE WHEN t.strategy = 'lazy' AND t.created_bytes < e.page_bytes
            THEN ROUND(100.0 * (1 - CAST(t.created_bytes AS REAL) / e.page_bytes), 2) END AS break_even_pct,
       CASE WHEN t.strategy = 'lazy' THEN ROUND(100.0 *
           (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')
           / (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels'), 2) END AS realized_pct
FROM totals t
LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
ORDER BY t.run_key, t.ordinal;
