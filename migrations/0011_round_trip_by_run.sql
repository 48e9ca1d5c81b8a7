-- profctl schema, version 11: round_trip and round_trip_instances read one run's events,
-- not the whole history, when filtered on run_id (docs/leaks.md, docs/schema.md).
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- The columns and figures are those of version 6. What changed is only how SQLite can
-- plan `WHERE run_id = ?` on them: version 6 grouped the instances by run_key (so a
-- filter on run_id could not be pushed below the grouping) and summed the marked
-- instances with GROUP BY above a window (SQLite 3.40 pushes a WHERE into one aggregate
-- subquery, not through two). `check --leaks` of a 200-instance run in a 222 MB history
-- scanned all 8.2 million events. Here the instances are grouped by run_id, and
-- round_trip sums with window functions partitioned by (run_id, repeat, component,
-- strategy) and keeps one row per partition with DISTINCT: a filter on run_id then
-- reaches the runs index first (EXPLAIN QUERY PLAN: SEARCH r ... (run_id=?)).

DROP VIEW round_trip;
DROP VIEW round_trip_instances;

-- One instance of a component under a strategy, in one repeat; see version 6.
CREATE VIEW round_trip_instances AS
SELECT r.run_id, x.repeat, s.component, s.strategy, e.instance,
       SUM(CASE WHEN k.name IN ('release', 'evict') THEN 0 ELSE e.requested_bytes END) AS taken_bytes,
       -SUM(CASE WHEN k.name IN ('release', 'evict') THEN e.requested_bytes ELSE 0 END) AS given_back_bytes,
       SUM(e.requested_bytes) AS left_bytes,
       SUM(e.requested_bytes + e.usable_extra_bytes) AS left_usable_bytes,
       SUM(e.allocations) - SUM(e.frees) AS left_blocks,
       MIN(CASE WHEN k.name IN ('release', 'evict') THEN NULL ELSE e.seq END) AS first_taken_seq,
       MIN(CASE WHEN k.name IN ('release', 'evict') THEN e.seq END) AS first_given_back_seq
FROM runs r
JOIN event_series x ON x.run_key = r.run_key
JOIN events e ON e.series_id = x.series_id
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
GROUP BY r.run_id, x.repeat, x.subject_id, e.instance;

-- One (run, repeat, component, strategy); see version 6 for the columns.
CREATE VIEW round_trip AS
WITH marked AS (
    SELECT i.*,
           (i.first_taken_seq = MIN(i.first_taken_seq) OVER g
            OR i.first_given_back_seq = MIN(i.first_given_back_seq) OVER g) AS is_first
    FROM round_trip_instances i
    WINDOW g AS (PARTITION BY i.run_id, i.repeat, i.component, i.strategy)
)
SELECT DISTINCT run_id, repeat, component, strategy,
       COUNT(*) OVER g AS instances,
       SUM(taken_bytes) OVER g AS taken_bytes,
       SUM(given_back_bytes) OVER g AS given_back_bytes,
       SUM(left_bytes) OVER g AS left_bytes,
       SUM(left_usable_bytes) OVER g AS left_usable_bytes,
       SUM(left_blocks) OVER g AS left_blocks,
       SUM(CASE WHEN is_first THEN left_bytes ELSE 0 END) OVER g AS firsts_left_bytes,
       SUM(CASE WHEN is_first THEN left_blocks ELSE 0 END) OVER g AS firsts_left_blocks,
       SUM(CASE WHEN is_first THEN 0 ELSE left_bytes END) OVER g AS others_left_bytes,
       SUM(CASE WHEN is_first THEN 0 ELSE left_blocks END) OVER g AS others_left_blocks
FROM marked
WINDOW g AS (PARTITION BY run_id, repeat, component, strategy);
