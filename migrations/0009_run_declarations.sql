-- profctl schema, version 9: each run stores its scenario's whole declaration. Never edit
-- this file once it has shipped: add a new numbered migration instead.
--
-- The declaration (JSON: the scenario's name, summary, baseline, strategies, parameters,
-- steps, metrics, report and what it keeps on purpose) as the executable that recorded
-- the run declared it, so a reader without the scenario's code (plain profctl reading a
-- user's own executable's runs) knows it: `check --leaks` takes what the scenario keeps
-- on purpose from here. Runs recorded before this version have no row.
CREATE TABLE run_declarations (
    run_key     INTEGER PRIMARY KEY REFERENCES runs (run_key) ON DELETE CASCADE,
    declaration TEXT NOT NULL CHECK (json_valid(declaration))
) STRICT;
