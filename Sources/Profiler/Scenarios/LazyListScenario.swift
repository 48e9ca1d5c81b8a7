internal import ProfilerCatalog
import ProfilerModel
import ProfilerPrimitives

/// Seed experiment 2: a feed of N rows shown through a viewport of V rows, scrolled to
/// the bottom and back, with data loaded in pages as the end comes near.
///
/// - `eager`: every loaded row created and realized at once.
/// - `lazy`: rows created and realized only when they come into view.
/// - `lazy-explicit-id`: an explicit `.id` makes every row be created; bodies stay lazy.
/// - `lazy-conditional-root`: a conditional at the row's top makes every row be created.
/// - `lazy-wrapped-conditional`: the conditional wrapped in a layout container: lazy again.
package struct LazyListScenario: Scenario {
    package let name = "lazy-list"
    package let summary = "a feed of N rows through a viewport, scrolled down and back: eager vs lazy variants (seed 2)"
    package enum Strategy: String, ScenarioStrategy {
        case eager, lazy
        case lazyExplicitID = "lazy-explicit-id"
        case lazyConditionalRoot = "lazy-conditional-root"
        case lazyWrappedConditional = "lazy-wrapped-conditional"
    }

    package let baselineStrategy = Strategy.eager.rawValue
    package let strategies = Strategy.names
    package let steps = ["top", "scroll-down", "scroll-up", "release"]
    package let metrics = ["nested_state_resets", "max_visible", "pages_loaded"]
    package let countParameter = "rows"
    package let parameters = [
        ParameterSpec("rows", "items in the feed", .integer(1...100_000), default: .int(100)),
        ParameterSpec("viewport", "rows visible at once", .integer(1...10_000), default: .int(10)),
        ParameterSpec("page_size", "items loaded per page", .integer(1...10_000), default: .int(30)),
        ParameterSpec("load_threshold", "load the next page when this close to the end", .integer(0...10_000), default: .int(10)),
        ParameterSpec("scroll", "the scroll script: moves to the bottom or the top, one row at a time",
                      .script(["down", "up"]), default: .strings(["down", "up"])),
    ]
    package let report = ReportDeclaration(
        name: "lazy-list", view: "list_report",
        summary: "Rows created and realized (at the top and in all), the most rows visible, peak live bytes, live bytes once scrolled back to the top, nested state lost, pages loaded.",
        query: """
            WITH counts AS (
                SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal, MAX(repeats) AS repeats,
                       CAST(SUM(CASE WHEN component = 'row' AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) AS created,
                       CAST(SUM(CASE WHEN component = 'row' AND kind = 'create' AND step = 'top' THEN events ELSE 0 END) AS BIGINT) AS created_at_top,
                       CAST(SUM(CASE WHEN component = 'row-body' AND kind = 'realize' THEN events ELSE 0 END) AS BIGINT) AS realized,
                       CAST(SUM(CASE WHEN component = 'row-body' AND kind = 'realize' AND step = 'top' THEN events ELSE 0 END) AS BIGINT) AS realized_at_top
                FROM step_summary WHERE report = 'lazy-list'
                GROUP BY run_key, run_id, strategy
            ),
            live AS (
                SELECT run_key, strategy, MAX(peak_bytes) AS peak,
                       MAX(CASE WHEN step = 'scroll-up' THEN live_bytes END) AS back_at_top
                FROM sample_summary GROUP BY run_key, strategy
            )
            SELECT c.run_id, c.strategy,
                   c.created / c.repeats AS rows_created,
                   c.created_at_top / c.repeats AS rows_created_at_top,
                   c.realized / c.repeats AS realizations,
                   c.realized_at_top / c.repeats AS rows_realized_at_top,
                   CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'max_visible')) AS BIGINT) AS max_visible,
                   v.peak AS peak_live_bytes,
                   CAST(trunc(v.back_at_top) AS BIGINT) AS live_bytes_back_at_top,
                   CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'nested_state_resets')) AS BIGINT) AS nested_state_resets,
                   CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = c.run_key AND m.strategy = c.strategy AND m.name = 'pages_loaded')) AS BIGINT) AS pages_loaded
            FROM counts c
            JOIN live v ON v.run_key = c.run_key AND v.strategy = c.strategy
            ORDER BY c.run_key, c.ordinal
            """,
        columns: [
            .label("strategy", "how rows are created and realized"),
            .measured("rows_created", .count, "rows created over the whole script"),
            .measured("rows_created_at_top", .count, "rows created to show the top"),
            .measured("realizations", .count, "row bodies realized over the whole script"),
            .measured("rows_realized_at_top", .count, "row bodies realized to show the top"),
            .measured("max_visible", .count, "the most rows alive at once"),
            .measured("peak_live_bytes", .bytes, "the highest live bytes"),
            .measured("live_bytes_back_at_top", .bytes, "live bytes once scrolled back to the top"),
            .measured("nested_state_resets", .count, "bodies realized again without the state set in them"),
            .measured("pages_loaded", .count, "pages of data loaded"),
        ],
        charts: [
            .perStrategy("Rows created and realized", unit: "count",
                         ["rows_created", "rows_created_at_top", "realizations", "rows_realized_at_top"]),
            .perStrategy("Live bytes", unit: "bytes", ["peak_live_bytes", "live_bytes_back_at_top"]),
        ])

    package init() {}

    package func run(_ context: ScenarioContext) throws {
        for strategy in try context.strategies(Strategy.self) {
            try runStrategy(strategy, context.discarding, rows: 3)
            try runStrategy(strategy, context, rows: context.options.int("rows"))
            context.progress("\(name): \(strategy.rawValue)")
        }
    }

    private func makeList(_ strategy: Strategy, rows: Int, _ options: ResolvedOptions) -> LazyList<FeedRow, FeedRowBody> {
        typealias Policy = LazyList<FeedRow, FeedRowBody>.Policy
        let (creation, realization, wrapped): (Policy, Policy, Bool) = switch strategy {
        case .eager: (.all, .all, false)
        case .lazy: (.visible, .visible, false)
        case .lazyExplicitID, .lazyConditionalRoot: (.all, .visible, false)
        case .lazyWrappedConditional: (.visible, .visible, true)
        }
        return LazyList(totalItems: rows, pageSize: options.int("page_size"), loadThreshold: options.int("load_threshold"),
                        creation: creation, realization: realization,
                        makeRow: { FeedRow(item: $0) },
                        makeBody: { row, _ in FeedRowBody(row: row, wrapped: wrapped) })
    }

    private func runStrategy(_ typed: Strategy, _ context: ScenarioContext, rows: Int) throws {
        let strategy = typed.rawValue
        let viewport = context.options.int("viewport")
        let list = makeList(typed, rows: rows, context.options)
        let probe = context.probe(component: "row", strategy: strategy)
        // Nested state the user set in a body; a body realized again without it was reset.
        var touched = Set<Int>()
        var resets = 0
        func show(_ offset: Int) throws {
            try list.scroll(to: offset, viewport: viewport, probe: probe,
                            didRealize: { index, body in
                                if touched.contains(index) { resets += 1 }
                                body.expansion.isExpanded = true
                                touched.insert(index)
                            })
        }
        try context.step("top", strategy: strategy) { try show(0) }
        var offset = 0
        for move in context.options.script("scroll") {
            try context.step("scroll-\(move)", strategy: strategy) {
                if move == "down" {
                    while offset + viewport < list.loadedItems || list.loadedItems < list.totalItems {
                        offset += 1
                        try show(offset)
                        if offset > list.totalItems { break }
                    }
                } else {
                    while offset > 0 {
                        offset -= 1
                        try show(offset)
                    }
                }
            }
        }
        try context.metric("nested_state_resets", Double(resets), strategy: strategy)
        try context.metric("max_visible", Double(list.maxVisible), strategy: strategy)
        try context.metric("pages_loaded", Double(list.pagesLoaded), strategy: strategy)
        try context.step("release", strategy: strategy) { try list.removeAll(probe: probe) }
    }
}
