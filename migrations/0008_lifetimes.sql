-- profctl schema, version 8: lifetimes and size classes per component, strategy and event
-- kind (docs/leaks.md, "Temporaries and size classes"; docs/schema.md).
-- Never edit this file once it has shipped: add a new numbered migration instead.
--
-- Written once at the end of a run from what the allocation hooks counted in each
-- measured region (nothing is added to the stored events). A series is one (run,
-- component, strategy, event kind): the figures of all its events' regions, summed.

-- A series' allocations and its temporaries: blocks allocated in an event's measured
-- region and freed on the same thread before that region closed.
CREATE TABLE lifetime_rollups (
    run_key                    INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component                  TEXT NOT NULL,
    strategy                   TEXT NOT NULL,
    kind                       TEXT NOT NULL,
    regions                    INTEGER NOT NULL CHECK (regions > 0),  -- events whose regions are summed here
    allocations                INTEGER NOT NULL,
    requested_bytes            INTEGER NOT NULL,
    usable_bytes               INTEGER NOT NULL,
    temporaries                INTEGER NOT NULL,
    temporary_requested_bytes  INTEGER NOT NULL,
    PRIMARY KEY (run_key, component, strategy, kind)
) STRICT;

-- A series' allocations by log2 size class of the requested size: class c holds sizes in
-- [2^c, 2^(c+1)) (class 0 also holds 0), with what was asked for and what malloc handed back.
CREATE TABLE size_class_rollups (
    run_key          INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    component        TEXT NOT NULL,
    strategy         TEXT NOT NULL,
    kind             TEXT NOT NULL,
    size_class       INTEGER NOT NULL CHECK (size_class BETWEEN 0 AND 63),
    allocations      INTEGER NOT NULL CHECK (allocations > 0),
    requested_bytes  INTEGER NOT NULL,
    usable_bytes     INTEGER NOT NULL,
    PRIMARY KEY (run_key, component, strategy, kind, size_class)
) STRICT;

-- Temporaries per run, component, strategy and event kind, with their share of the
-- series' allocations and requested bytes.
CREATE VIEW temporaries AS
SELECT r.run_id, l.component, l.strategy, l.kind, l.regions,
       l.allocations, l.requested_bytes,
       l.temporaries, l.temporary_requested_bytes,
       ROUND(100.0 * l.temporaries / NULLIF(l.allocations, 0), 1) AS temporary_pct,
       ROUND(100.0 * l.temporary_requested_bytes / NULLIF(l.requested_bytes, 0), 1) AS temporary_bytes_pct
FROM lifetime_rollups l
JOIN runs r ON r.run_key = l.run_key;

-- The size-class histogram per run, component and strategy (event kinds summed): what
-- each class asked for, what malloc's rounding handed back, and the difference.
CREATE VIEW size_classes AS
SELECT r.run_id, c.component, c.strategy, c.size_class,
       CASE WHEN c.size_class = 0 THEN 0 ELSE 1 << c.size_class END AS min_requested,
       CASE WHEN c.size_class < 62 THEN (1 << (c.size_class + 1)) - 1 END AS max_requested,
       SUM(c.allocations) AS allocations,
       SUM(c.requested_bytes) AS requested_bytes,
       SUM(c.usable_bytes) AS usable_bytes,
       SUM(c.usable_bytes) - SUM(c.requested_bytes) AS wasted_bytes,
       ROUND(100.0 * (SUM(c.usable_bytes) - SUM(c.requested_bytes)) / NULLIF(SUM(c.usable_bytes), 0), 1) AS wasted_pct
FROM size_class_rollups c
JOIN runs r ON r.run_key = c.run_key
GROUP BY c.run_key, c.component, c.strategy, c.size_class;
