-- profctl shared store, version 6: the `idle` event kind (migrations/0011_cache_trace.sql):
-- the run loop went idle, when a sweeping cache sweeps. Runs pushed with it need the kind.
INSERT INTO event_kinds (kind_id, name) VALUES (6, 'idle');
