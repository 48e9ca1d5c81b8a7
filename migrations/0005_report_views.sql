-- profctl schema, version 5: report views come from the scenarios' declarations. Never
-- edit this file once it has shipped: add a new numbered migration instead.
--
-- Like a repeatable migration, each report view is (re)created from its declaration
-- when a database is opened for writing and the declaration's checksum differs from the
-- one stored here. The declaration itself (its columns with unit, polarity, measured or
-- derived, gated, and its charts) is stored next to the checksum, so the reading
-- commands treat a report declared by a user's own executable as they treat profctl's.
-- The report views created by migrations 0002 and 0003 stay until a declaration
-- replaces them (with the same SQL, so with the same numbers).
CREATE TABLE report_views (
    view        TEXT PRIMARY KEY,           -- e.g. cache_report
    report      TEXT NOT NULL UNIQUE,       -- runs.report of the runs it reports, e.g. image-cache
    checksum    TEXT NOT NULL,              -- FNV-1a 64 of the declaration
    query       TEXT NOT NULL,              -- the SELECT the view is created from
    declaration TEXT NOT NULL,              -- the declaration as JSON (query, columns, charts)
    updated_at  TEXT NOT NULL
) STRICT;
