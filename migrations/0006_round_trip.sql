-- profctl schema, version 6: what a scenario's round trip leaves behind (docs/leaks.md).
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Views only. An event's requested_bytes is the net change in live heap bytes its
-- measured region made (its own blocks still live when it closed, minus the tracked
-- blocks it freed), so summed over one instance's events (create, realize, hit, miss,
-- then release, evict) they are the bytes that instance's round trip left behind. A
-- scenario's declarations of what it keeps on purpose live in its code, not here:
-- `profctl check --leaks` applies them to these rows.

-- One instance of a component under a strategy, in one repeat: what its events took,
-- what they gave back, what is left, and when it first took and first gave back (the
-- first instance built and the first released may carry a one-time cost per process).
CREATE VIEW round_trip_instances AS
SELECT r.run_id, x.repeat, s.component, s.strategy, e.instance,
       SUM(CASE WHEN k.name IN ('release', 'evict') THEN 0 ELSE e.requested_bytes END) AS taken_bytes,
       -SUM(CASE WHEN k.name IN ('release', 'evict') THEN e.requested_bytes ELSE 0 END) AS given_back_bytes,
       SUM(e.requested_bytes) AS left_bytes,
       SUM(e.requested_bytes + e.usable_extra_bytes) AS left_usable_bytes,
       SUM(e.allocations) - SUM(e.frees) AS left_blocks,
       MIN(CASE WHEN k.name IN ('release', 'evict') THEN NULL ELSE e.seq END) AS first_taken_seq,
       MIN(CASE WHEN k.name IN ('release', 'evict') THEN e.seq END) AS first_given_back_seq
FROM events e
JOIN event_series x ON x.series_id = e.series_id
JOIN runs r ON r.run_key = x.run_key
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
GROUP BY x.run_key, x.repeat, x.subject_id, e.instance;

-- One (run, repeat, component, strategy): the round trip's balance, with what the first
-- instance built and the first released left apart from what all the others left.
CREATE VIEW round_trip AS
WITH marked AS (
    SELECT i.*,
           (i.first_taken_seq = MIN(i.first_taken_seq) OVER g
            OR i.first_given_back_seq = MIN(i.first_given_back_seq) OVER g) AS is_first
    FROM round_trip_instances i
    WINDOW g AS (PARTITION BY i.run_id, i.repeat, i.component, i.strategy)
)
SELECT run_id, repeat, component, strategy,
       COUNT(*) AS instances,
       SUM(taken_bytes) AS taken_bytes,
       SUM(given_back_bytes) AS given_back_bytes,
       SUM(left_bytes) AS left_bytes,
       SUM(left_usable_bytes) AS left_usable_bytes,
       SUM(left_blocks) AS left_blocks,
       SUM(CASE WHEN is_first THEN left_bytes ELSE 0 END) AS firsts_left_bytes,
       SUM(CASE WHEN is_first THEN left_blocks ELSE 0 END) AS firsts_left_blocks,
       SUM(CASE WHEN is_first THEN 0 ELSE left_bytes END) AS others_left_bytes,
       SUM(CASE WHEN is_first THEN 0 ELSE left_blocks END) AS others_left_blocks
FROM marked
GROUP BY run_id, repeat, component, strategy;
