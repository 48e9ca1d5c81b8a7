-- profctl schema, version 13: a cache's request trace. Never edit this file once it has
-- shipped: add a new numbered migration instead.
--
-- A cache's lookups (`hit`, `miss` with the bytes the miss built), the releases of what
-- they returned and its evictions are events already, in the run's order (`seq`), keyed
-- by component. One more kind marks the run loop going idle (when a sweeping cache
-- sweeps), so a replay (`profctl whatif`) sees every turn the run took.
INSERT INTO event_kinds (kind_id, name) VALUES (6, 'idle');

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
