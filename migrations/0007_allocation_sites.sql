-- profctl schema, version 7: allocation sites (record --sites). Never edit this file once it
-- has shipped: add a new numbered migration instead.
--
-- A site is one call stack that allocated inside measured instances of one
-- (run, component, strategy, event kind). Frames and stacks are stored once for the whole
-- database, named by what they are (module, function, file, line), not by address, so that
-- runs of different builds share them and compare.

-- One symbolized frame: the module (executable or library), the demangled function, and
-- the source file and line where debug information gave them.
CREATE TABLE site_frames (
    frame_id INTEGER PRIMARY KEY,
    module   TEXT NOT NULL,
    function TEXT NOT NULL,                 -- demangled; '0x...' (offset in module) when unnamed
    file     TEXT NOT NULL DEFAULT '',      -- '' when unknown
    line     INTEGER NOT NULL DEFAULT 0,    -- 0 when unknown
    UNIQUE (module, function, file, line)
) STRICT;

-- One call stack, innermost frame first; `frames` is the frame ids joined by commas (its
-- identity). `site_frame_id` is the frame the stack is named by: the innermost frame of
-- the user's code (docs/hooks.md, "Sites"), the folding rule diffs match on.
CREATE TABLE site_stacks (
    stack_id      INTEGER PRIMARY KEY,
    frames        TEXT NOT NULL UNIQUE,
    depth         INTEGER NOT NULL,
    site_frame_id INTEGER NOT NULL REFERENCES site_frames (frame_id)
) STRICT;

CREATE TABLE site_stack_frames (
    stack_id INTEGER NOT NULL REFERENCES site_stacks (stack_id),
    position INTEGER NOT NULL,              -- 0: innermost (nearest malloc)
    frame_id INTEGER NOT NULL REFERENCES site_frames (frame_id),
    PRIMARY KEY (stack_id, position)
) STRICT, WITHOUT ROWID;

-- What one stack allocated in one run's measured instances of a (component, strategy, kind):
-- blocks, the frees of those blocks before their instance's measurement ended, their bytes,
-- and the bytes still live when it ended (summed over instances).
CREATE TABLE sites (
    run_key              INTEGER NOT NULL REFERENCES runs (run_key) ON DELETE CASCADE,
    subject_id           INTEGER NOT NULL REFERENCES subjects (subject_id),
    kind_id              INTEGER NOT NULL REFERENCES event_kinds (kind_id),
    stack_id             INTEGER NOT NULL REFERENCES site_stacks (stack_id),
    allocations          INTEGER NOT NULL,
    frees                INTEGER NOT NULL,
    requested_bytes      INTEGER NOT NULL,
    usable_bytes         INTEGER NOT NULL,
    live_requested_bytes INTEGER NOT NULL,
    live_usable_bytes    INTEGER NOT NULL,
    PRIMARY KEY (run_key, subject_id, kind_id, stack_id)
) STRICT;

-- Runs recorded with --sites, and the depth their stacks were captured at.
CREATE TABLE site_runs (
    run_key       INTEGER PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    depth         INTEGER NOT NULL,
    stacks        INTEGER NOT NULL,         -- distinct stacks captured in the run
    dropped       INTEGER NOT NULL          -- blocks whose stack could not be stored (0 in a sound run)
) STRICT;

-- Sites with every key spelled out: what analysts query.
CREATE VIEW site_summary AS
SELECT r.run_id, r.scenario, s.component, s.strategy, k.name AS kind,
       f.function AS site, f.file AS site_file, f.line AS site_line, x.stack_id,
       x.allocations, x.frees, x.requested_bytes, x.usable_bytes, x.live_requested_bytes, x.live_usable_bytes
FROM sites x
JOIN runs r ON r.run_key = x.run_key
JOIN subjects s ON s.subject_id = x.subject_id
JOIN event_kinds k ON k.kind_id = x.kind_id
JOIN site_stacks st ON st.stack_id = x.stack_id
JOIN site_frames f ON f.frame_id = st.site_frame_id;

-- Every frame of every stored stack, innermost first.
CREATE VIEW site_stack_log AS
SELECT sf.stack_id, sf.position, f.module, f.function, f.file, f.line
FROM site_stack_frames sf
JOIN site_frames f ON f.frame_id = sf.frame_id;
