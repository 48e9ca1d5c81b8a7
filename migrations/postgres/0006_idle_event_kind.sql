-- profctl shared store, version 6: the `idle` event kind (migrations/0013_cache_trace.sql):
-- the run loop went idle, when a sweeping cache sweeps. Runs pushed with it need the kind.
-- ON CONFLICT: a store that already knows the kind keeps its row.
INSERT INTO event_kinds (kind_id, name) VALUES (6, 'idle') ON CONFLICT (kind_id) DO NOTHING;
