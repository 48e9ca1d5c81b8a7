-- profctl schema, version 24: `site_summary`, `types` and `size_classes` name their gross
-- bytes `allocated_bytes`, as `temporaries` has since version 22.
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- At the grain of (run, component, strategy, kind) `requested_bytes` in `event_log` and
-- `rollups` is the change in live heap bytes the events caused (a release is negative),
-- while in these three views it is everything allocated, freed or not, so a join on the
-- same series compared different figures. The gross figure gets its own name,
-- `allocated_bytes`, last; `requested_bytes` stays where it was, with the same value, as a
-- deprecated alias for queries written before this version (docs/schema.md's contract
-- notes). Figures are unchanged. Each view restates every column it had at version 23.
DROP VIEW site_summary;

CREATE VIEW site_summary AS
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind,
       f.function AS site, f.file AS site_file, f.line AS site_line, x.stack_id,
       x.allocations, x.frees, x.requested_bytes, x.usable_bytes, x.live_requested_bytes, x.live_usable_bytes,
       x.requested_bytes AS allocated_bytes
FROM sites x
JOIN runs r ON r.run_key = x.run_key
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
JOIN site_stacks st ON st.stack_id = x.stack_id
JOIN site_frames f ON f.frame_id = st.site_frame_id;

DROP VIEW size_classes;

CREATE VIEW size_classes AS
SELECT r.run_id, c.component, c.strategy, c.size_class,
       CASE WHEN c.size_class = 0 THEN 0 ELSE 1 << c.size_class END AS min_requested,
       CASE WHEN c.size_class < 62 THEN (1 << (c.size_class + 1)) - 1 END AS max_requested,
       SUM(c.allocations) AS allocations,
       SUM(c.requested_bytes) AS requested_bytes,
       SUM(c.usable_bytes) AS usable_bytes,
       SUM(c.usable_bytes) - SUM(c.requested_bytes) AS wasted_bytes,
       ROUND(100.0 * (SUM(c.usable_bytes) - SUM(c.requested_bytes)) / NULLIF(SUM(c.usable_bytes), 0), 1) AS wasted_pct,
       SUM(c.requested_bytes) AS allocated_bytes
FROM size_class_rollups c
JOIN runs r ON r.run_key = c.run_key
GROUP BY c.run_key, c.component, c.strategy, c.size_class;

DROP VIEW types;

CREATE VIEW types AS
WITH instances AS (
    SELECT s.run_key, s.subject_id, s.kind_id, count(*) AS instances
    FROM events e JOIN event_series s ON s.series_id = e.series_id
    GROUP BY s.run_key, s.subject_id, s.kind_id
)
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind, n.name AS type,
       n.name = '(not a Swift object)' AS remainder,
       coalesce(i.instances, 0) AS instances,
       t.objects, t.requested_bytes, t.live_objects, t.live_requested_bytes,
       t.released_objects, t.released_requested_bytes,
       t.requested_bytes AS allocated_bytes
FROM object_types t
JOIN runs r ON r.run_key = t.run_key
JOIN subjects s ON s.subject_id = t.subject_id
JOIN event_kinds k ON k.kind_id = t.kind_id
JOIN object_type_names n ON n.type_id = t.type_id
LEFT JOIN instances i ON i.run_key = t.run_key AND i.subject_id = t.subject_id AND i.kind_id = t.kind_id;
