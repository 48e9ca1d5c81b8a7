-- profctl's PostgreSQL store, version 4: the scenarios' declarations, as the SQLite file
-- keeps them. Never edit this file once it has shipped: add a new numbered migration
-- instead.
--
-- run_declarations: each run's scenario declaration, as the file's version 9
-- (migrations/0009_run_declarations.sql) stores it; `push` copies it with the run. Runs
-- pushed before this version have none.
--
-- report_views: the report views are no longer mirrored by hand in these migrations. As in
-- the file (its version 5), each is created from its scenario's declaration, whose query is
-- written once for both stores, and stored here with its checksum and the declaration;
-- `push` creates, or drops and creates again, those whose checksum differs (the built-in
-- reports, and a user's own executable's reports stored in the file pushed). The views
-- versions 1 and 3 created stay, with the same rows, until the first push replaces them.
CREATE TABLE run_declarations (
    run_key     BIGINT PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    declaration TEXT NOT NULL CHECK (CAST(declaration AS jsonb) IS NOT NULL)
);

CREATE TABLE report_views (
    view        TEXT PRIMARY KEY,
    report      TEXT NOT NULL UNIQUE,
    checksum    TEXT NOT NULL,
    query       TEXT NOT NULL,
    declaration TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
