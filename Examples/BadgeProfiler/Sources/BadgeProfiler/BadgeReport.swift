import Profiler

/// The badge scenario's own report: what the inbox's badges cost per strategy, what lazy
/// saves, and the unread share below which lazy wins. Declared once here; `badge-profiler`
/// stores it in the database, so plain `profctl report` and `profctl check` read it too.
/// Written in SQL both stores take (docs/schema.md, `report_views`), so `profctl push`
/// creates it on the team's PostgreSQL store too.
let badgeReport = ReportDeclaration(
    name: "badge", view: "badge_report",
    summary: "inbox badges: bytes per strategy, savings against eager, and the unread share below which lazy wins",
    query: """
        WITH totals AS (
            SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
                   CAST(SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS inbox_bytes,
                   CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_bytes
            FROM step_summary WHERE report = 'badge' AND step = 'build'
            GROUP BY run_key, run_id, strategy
        )
        SELECT t.run_id, t.strategy,
               CAST(json_extract(r.parameters, '$.rows') AS BIGINT) AS rows,
               CAST(json_extract(r.parameters, '$.unread_percent') AS BIGINT) AS unread_pct,
               t.inbox_bytes,
               round(CAST(t.inbox_bytes AS DOUBLE PRECISION) / CAST(json_extract(r.parameters, '$.rows') AS BIGINT), 2) AS bytes_per_row,
               e.inbox_bytes - t.inbox_bytes AS saved_bytes,
               round(100.0 * CAST(e.inbox_bytes - t.inbox_bytes AS DOUBLE PRECISION) / NULLIF(e.inbox_bytes, 0), 2) AS savings_pct,
               CASE WHEN t.strategy = 'lazy' AND t.created_bytes < e.inbox_bytes
                    THEN round(100.0 * (1 - CAST(t.created_bytes AS DOUBLE PRECISION) / e.inbox_bytes), 2) END AS break_even_unread_pct
        FROM totals t JOIN runs r ON r.run_key = t.run_key
        LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
        ORDER BY t.run_key, t.ordinal
        """,
    columns: [
        .label("strategy", "eager or lazy badges"),
        .shown("rows", .count, "inbox rows (an input)"),
        .shown("unread_pct", .percent, "rows with unread mail, whose badge is realized (an input)"),
        .measured("inbox_bytes", .bytes, "bytes of every badge built and realized"),
        .measured("bytes_per_row", .bytes, "inbox bytes per row: what one row's badge costs under this strategy"),
        .derived("saved_bytes", .bytes, "eager's bytes minus this one's"),
        .derived("savings_pct", .percent, "saved bytes as a share of eager's"),
        .derived("break_even_unread_pct", .percent, "lazy: the unread share below which lazy wins"),
    ],
    charts: [
        .perStrategy("Bytes of the inbox's badges", unit: "bytes", ["inbox_bytes"]),
        .perStrategy("Unread share against break-even", unit: "%", ["unread_pct", "break_even_unread_pct"]),
    ])
