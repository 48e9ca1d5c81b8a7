-- profctl's PostgreSQL store, version 14: `types` names its gross bytes `allocated_bytes`,
-- as the SQLite file's version 24 (migrations/0024_allocated_bytes.sql) does; the
-- store holds no `site_summary` or `size_classes` view. `requested_bytes` stays, with the
-- same value, as a deprecated alias. Never edit this file once it has shipped: add a new
-- numbered migration instead.

DROP VIEW types;

CREATE VIEW types AS
WITH instances AS (
    SELECT s.run_key, s.subject_id, s.kind_id, count(*) AS instances
    FROM events e JOIN event_series s ON s.series_id = e.series_id
    GROUP BY s.run_key, s.subject_id, s.kind_id
)
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind, n.name AS type,
       CAST(n.name = '(not a Swift object)' AS integer) AS remainder,
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
