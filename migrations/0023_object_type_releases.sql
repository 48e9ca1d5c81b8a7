-- profctl schema, version 23: which objects a later event gave back, by type, so that
-- `check --leaks` names the types that stayed exactly (docs/leaks.md, "Which types stay").
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Until now a type row said which of its objects were still allocated when each of its
-- own events ended, not which of those a later event freed: where an instance gave back
-- part of what it built (a screen freed, its observer entry kept) the types could not say
-- what stayed. Each row now also counts the objects of its type, allocated in an earlier
-- measured event, that the (component, strategy, kind)'s events freed, and their bytes;
-- the remainder row counts the other blocks those events freed. Summed over a subject's
-- kinds, live less released is then exactly what its round trips left, per type, as the
-- round_trip view counts it: blocks allocations less frees, bytes net live bytes.
-- A row may now have 0 objects (its events only freed objects of the type).
--
-- object_type_runs.releases: 1 for runs recorded with these columns (this version on);
-- 0 for runs recorded before, whose released columns are unknown (stored as 0).

ALTER TABLE object_types ADD COLUMN released_objects INTEGER NOT NULL DEFAULT 0;
ALTER TABLE object_types ADD COLUMN released_requested_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE object_type_runs ADD COLUMN releases INTEGER NOT NULL DEFAULT 0;

-- The view of version 15, every column as it was, with the two new ones last.
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
       t.released_objects, t.released_requested_bytes
FROM object_types t
JOIN runs r ON r.run_key = t.run_key
JOIN subjects s ON s.subject_id = t.subject_id
JOIN event_kinds k ON k.kind_id = t.kind_id
JOIN object_type_names n ON n.type_id = t.type_id
LEFT JOIN instances i ON i.run_key = t.run_key AND i.subject_id = t.subject_id AND i.kind_id = t.kind_id;
