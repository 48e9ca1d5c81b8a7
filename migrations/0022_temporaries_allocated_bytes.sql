-- profctl schema, version 22: `temporaries` names its gross bytes `allocated_bytes`.
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Elsewhere at the grain of (run, component, strategy, kind) `requested_bytes` is the
-- change in live heap bytes the events caused (event_log, rollups: a release is
-- negative), while `temporaries.requested_bytes` (version 8) is everything the regions
-- allocated, freed or not, so the two disagree in a join on the same series. The gross
-- figure gets its own name, `allocated_bytes`, last; `requested_bytes` stays where it was,
-- with the same value, as a deprecated alias for queries written before this version
-- (docs/schema.md, "temporaries and size_classes"). Figures are unchanged.
DROP VIEW temporaries;

CREATE VIEW temporaries AS
SELECT r.run_id, l.component, l.strategy, l.kind, l.regions,
       l.allocations, l.requested_bytes,
       l.temporaries, l.temporary_requested_bytes,
       ROUND(100.0 * l.temporaries / NULLIF(l.allocations, 0), 1) AS temporary_pct,
       ROUND(100.0 * l.temporary_requested_bytes / NULLIF(l.requested_bytes, 0), 1) AS temporary_bytes_pct,
       l.requested_bytes AS allocated_bytes
FROM lifetime_rollups l
JOIN runs r ON r.run_key = l.run_key;
