-- profctl's PostgreSQL store, version 8: Swift object types per measured instance, as the
-- SQLite file's version 15 (migrations/0015_object_types.sql) stores them, with the same
-- names and columns. Never edit this file once it has shipped: add a new numbered
-- migration instead.

CREATE TABLE object_type_names (
    type_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE
);

CREATE TABLE object_types (
    run_key              BIGINT NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    subject_id           BIGINT NOT NULL REFERENCES subjects (subject_id),
    kind_id              BIGINT NOT NULL REFERENCES event_kinds (kind_id),
    type_id              BIGINT NOT NULL REFERENCES object_type_names (type_id),
    objects              BIGINT NOT NULL,
    requested_bytes      BIGINT NOT NULL,
    live_objects         BIGINT NOT NULL,
    live_requested_bytes BIGINT NOT NULL,
    PRIMARY KEY (run_key, subject_id, kind_id, type_id)
);

CREATE TABLE object_type_runs (
    run_key BIGINT PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    types   BIGINT NOT NULL,
    dropped BIGINT NOT NULL
);

CREATE VIEW types AS
WITH instances AS (
    SELECT s.run_key, s.subject_id, s.kind_id, count(*) AS instances
    FROM events e JOIN event_series s ON s.series_id = e.series_id
    GROUP BY s.run_key, s.subject_id, s.kind_id
)
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind, n.name AS type,
       CAST(n.name = '(not a Swift object)' AS integer) AS remainder,
       coalesce(i.instances, 0) AS instances,
       t.objects, t.requested_bytes, t.live_objects, t.live_requested_bytes
FROM object_types t
JOIN runs r ON r.run_key = t.run_key
JOIN subjects s ON s.subject_id = t.subject_id
JOIN event_kinds k ON k.kind_id = t.kind_id
JOIN object_type_names n ON n.type_id = t.type_id
LEFT JOIN instances i ON i.run_key = t.run_key AND i.subject_id = t.subject_id AND i.kind_id = t.kind_id;
