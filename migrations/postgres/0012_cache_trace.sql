-- profctl's PostgreSQL store, version 12: the cache_trace view, as the SQLite file's
-- version 13 (migrations/0013_cache_trace.sql) defines it, with the same columns and rows,
-- so `profctl whatif --store` replays a pushed run and `report --format html --store`
-- draws its what-if curves. The events it reads are pushed already; the `idle` kind is
-- the store's version 6. Never edit this file once it has shipped: add a new numbered
-- migration instead.

-- One strategy's cache trace in order: what `profctl whatif` replays.
-- bytes: for a miss, the bytes of the entry it built (its key's size in the replay).
CREATE VIEW cache_trace AS
SELECT r.run_id, x.repeat, s.strategy, e.seq, k.name AS kind, s.component AS key, e.requested_bytes AS bytes
FROM events e
JOIN event_series x ON x.series_id = e.series_id
JOIN runs r ON r.run_key = x.run_key
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
WHERE k.name IN ('hit', 'miss', 'release', 'evict', 'idle');
