#!/usr/bin/env python3
"""Writes Tests/Fixtures/schema-v1.sqlite: a database as profctl 0.1's first migration
made it, filled with two lazy-container runs (events and rollups), for the upgrade test.
Run once when the first migration shipped; the file is committed, never regenerated."""
import os, sqlite3, sys, uuid

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
migration = open(os.path.join(root, "migrations", "0001_initial.sql"), encoding="utf-8").read()
out = os.path.join(root, "Tests", "Fixtures", "schema-v1.sqlite")

def fnv1a(text):
    h = 0xcbf29ce484222325
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return format(h, "016x")

if os.path.exists(out):
    sys.exit(f"{out} exists: fixtures are never regenerated")
db = sqlite3.connect(out)
db.executescript(migration)
db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT")
db.execute("INSERT INTO schema_migrations VALUES (1, 'initial', ?, '2026-11-22T06:00:00.000Z')", (fnv1a(migration),))
db.execute("PRAGMA user_version = 1")

costs = {"Label": 705, "Button": 864, "ImageView": 523}
for n, started in enumerate(["2026-11-21T10:00:00.000Z", "2026-11-21T11:00:00.000Z"]):
    run_id = str(uuid.UUID(int=0x1000 + n))
    db.execute("""INSERT INTO runs (run_id, scenario, status, started_at, ended_at, git_commit, host, os, arch,
                  swift_version, build_configuration, tool_version, baseline_strategy, parameters, process_id)
                  VALUES (?, 'lazy-container', 'complete', ?, ?, ?, 'fixture-host', 'Debian GNU/Linux 12 (bookworm)',
                  'x86_64', '6.3', 'release', '0.1.0', 'eager', '{"instances":4,"repeats":1}', 1)""",
               (run_id, started, started.replace(":00.000Z", ":01.000Z"), f"{n:040x}"))
    run_key = db.execute("SELECT run_key FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0]
    seq = 0
    for component, eager in costs.items():
        for strategy in ["eager", "lazy", "lazy-realized"]:
            db.execute("INSERT OR IGNORE INTO subjects (component, strategy) VALUES (?, ?)", (component, strategy))
            subject = db.execute("SELECT subject_id FROM subjects WHERE component = ? AND strategy = ?", (component, strategy)).fetchone()[0]
            for instance in range(4):
                kinds = {"eager": [(0, eager)], "lazy": [(0, 48)], "lazy-realized": [(0, 48), (1, eager)]}[strategy]
                kinds = kinds + [(5, -b) for _, b in reversed(kinds)]
                for kind, nbytes in kinds:
                    db.execute("""INSERT INTO events (run_key, seq, repeat, subject_id, instance, kind_id, allocations, frees,
                                  requested_bytes, usable_bytes, duration_ns) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)""",
                               (run_key, seq, subject, instance, kind, 1 if nbytes > 0 else 0, 0 if nbytes > 0 else 1,
                                nbytes, nbytes + 8 if nbytes > 0 else nbytes - 8, 1000 + seq))
                    seq += 1
    ordinal = 0
    for component in costs:
        for strategy in ["eager", "lazy", "lazy-realized"]:
            ordinal += 1
            rows = db.execute("""SELECT SUM(CASE WHEN e.kind_id IN (0,1) THEN e.requested_bytes ELSE 0 END),
                                        SUM(CASE WHEN e.kind_id IN (0,1) THEN e.usable_bytes ELSE 0 END),
                                        SUM(CASE WHEN e.kind_id IN (0,1) THEN e.allocations ELSE 0 END),
                                        SUM(CASE WHEN e.kind_id = 5 THEN -e.requested_bytes ELSE 0 END),
                                        SUM(CASE WHEN e.kind_id = 5 THEN -e.usable_bytes ELSE 0 END)
                                 FROM events e JOIN subjects s USING (subject_id)
                                 WHERE e.run_key = ? AND s.component = ? AND s.strategy = ?""", (run_key, component, strategy)).fetchone()
            per = rows[0] // 4
            db.execute("""INSERT INTO rollups VALUES (?, ?, ?, ?, 4, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                       (run_key, component, strategy, ordinal, rows[2], rows[0], rows[1], per, per,
                        rows[1] // 4, rows[1] // 4, rows[3], rows[4]))
db.commit()
db.execute("VACUUM")
db.close()
print(f"wrote {out}")
