import ProfilerModel

extension ReportDeclaration {
    /// The report of the runs `PROFCTL_TEST_DB` records: one row per test (its component),
    /// with what its task meter measured, per test case (a parameterized test's cases are
    /// its instances), and the limits its traits set. It is stored with its view like a
    /// user's own report, so `profctl report`, `check` and `trend` read it without this code.
    ///
    /// Where each figure is kept: the test's one `create` event holds its allocations, frees
    /// and retained bytes (so the rollups have them, as for any component); the figures an
    /// event has no column for are metrics of the step named after the test. The names
    /// `bytes_retained` and `blocks_retained` are not `check --leaks`'s `retained_bytes`: a
    /// budget on them is an ordinary one.
    package static let testFigures = ReportDeclaration(
        name: "test-figures", view: "test_figures_report",
        summary: """
            The runs of test processes run with `PROFCTL_TEST_DB` (docs/testing.md, "Figures in a database"): one row per \
            test with a memory limit, the figures its task meter measured per test case and the limits in force.
            """,
        query: """
            WITH figures AS (
                SELECT m.run_key, st.name AS component,
                       SUM(CASE WHEN m.name = 'bytes_allocated' THEN m.value END) AS bytes_allocated,
                       SUM(CASE WHEN m.name = 'peak_bytes' THEN m.value END) AS peak_bytes,
                       SUM(CASE WHEN m.name = 'blocks_retained' THEN m.value END) AS blocks_retained,
                       SUM(CASE WHEN m.name = 'rounds' THEN m.value END) AS rounds,
                       SUM(CASE WHEN m.name = 'bytes_limit' THEN m.value END) AS bytes_limit,
                       SUM(CASE WHEN m.name = 'allocations_limit' THEN m.value END) AS allocations_limit,
                       SUM(CASE WHEN m.name = 'peak_limit' THEN m.value END) AS peak_limit,
                       SUM(CASE WHEN m.name = 'retained_limit' THEN m.value END) AS retained_limit
                FROM metrics m JOIN steps st ON st.run_key = m.run_key AND st.step = m.step
                GROUP BY m.run_key, st.name
            )
            -- Each case adds its figures to its test's step (metrics of one step add up), limits
            -- and rounds too: divided by the cases, a figure is per case (to 0.01) and a limit itself.
            SELECT r.run_id, r.scenario, x.component, x.instances AS cases,
                   round(CAST(x.allocations AS DOUBLE PRECISION) / x.instances, 2) AS allocations,
                   round(f.bytes_allocated / x.instances, 2) AS bytes_allocated,
                   round(f.peak_bytes / x.instances, 2) AS peak_bytes,
                   round(CAST(x.requested_bytes AS DOUBLE PRECISION) / x.instances, 2) AS bytes_retained,
                   round(f.blocks_retained / x.instances, 2) AS blocks_retained,
                   CAST(f.rounds / x.instances AS BIGINT) AS rounds,
                   CAST(f.bytes_limit / x.instances AS BIGINT) AS bytes_limit,
                   CAST(f.allocations_limit / x.instances AS BIGINT) AS allocations_limit,
                   CAST(f.peak_limit / x.instances AS BIGINT) AS peak_limit,
                   CAST(f.retained_limit / x.instances AS BIGINT) AS retained_limit
            FROM rollups x
            JOIN runs r ON r.run_key = x.run_key
            JOIN figures f ON f.run_key = x.run_key AND f.component = x.component
            WHERE r.report = 'test-figures'
            ORDER BY r.started_at, r.run_id, x.ordinal
            """,
        columns: [
            .label("component", "the test: its suites and its name, as `Suite/test()`"),
            .shown("cases", .count, "test cases measured (a parameterized test's arguments; 1 for a plain test)"),
            .measured("allocations", .count, "allocations the test made (on average per case; all rounds of noGrowth)"),
            .measured("bytes_allocated", .bytes, "requested bytes it allocated in all, freed or not"),
            .measured("peak_bytes", .bytes, "the highest of its own requested bytes live at once"),
            .measured("bytes_retained", .bytes, "its own requested bytes still live when it ended"),
            .measured("blocks_retained", .count, "its own blocks still live when it ended"),
            .shown("rounds", .count, "how many times noGrowth ran the body in the measurement; 1 otherwise"),
            .shown("bytes_limit", .bytes, "the limit on bytes_allocated in force; NULL: none"),
            .shown("allocations_limit", .count, "the limit on allocations in force; NULL: none"),
            .shown("peak_limit", .bytes, "the limit on peak_bytes in force; NULL: none"),
            .shown("retained_limit", .bytes, "the limit on bytes_retained in force (0: noLeaks); NULL: none"),
        ])
}
