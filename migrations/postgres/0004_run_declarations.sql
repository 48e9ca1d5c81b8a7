-- profctl's PostgreSQL store, version 4: each run stores its scenario's whole declaration,
-- as the SQLite file's version 9 (migrations/0009_run_declarations.sql) does; `push`
-- copies it with the run. Never edit this file once it has shipped: add a new numbered
-- migration instead. Runs pushed before this version have no row.
CREATE TABLE run_declarations (
    run_key     BIGINT PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    declaration TEXT NOT NULL CHECK (CAST(declaration AS jsonb) IS NOT NULL)
);
