/// Seed experiment 2: a feed of N rows shown through a viewport of V rows, scrolled to
/// the bottom and back, with data loaded in pages as the end comes near.
///
/// - `eager`: every loaded row created and realized at once.
/// - `lazy`: rows created and realized only when they come into view.
/// - `lazy-explicit-id`: an explicit `.id` makes every row be created; bodies stay lazy.
/// - `lazy-conditional-root`: a conditional at the row's top makes every row be created.
/// - `lazy-wrapped-conditional`: the conditional wrapped in a layout container: lazy again.
public struct LazyListScenario: Scenario {
    public let name = "lazy-list"
    public let summary = "a feed of N rows through a viewport, scrolled down and back: eager vs lazy variants (seed 2)"
    public let baselineStrategy = "eager"
    public let strategies = ["eager", "lazy", "lazy-explicit-id", "lazy-conditional-root", "lazy-wrapped-conditional"]
    public let countParameter = "rows"
    public let parameters = [
        ParameterSpec("rows", "items in the feed", .integer(1...100_000), default: .int(100)),
        ParameterSpec("viewport", "rows visible at once", .integer(1...10_000), default: .int(10)),
        ParameterSpec("page_size", "items loaded per page", .integer(1...10_000), default: .int(30)),
        ParameterSpec("load_threshold", "load the next page when this close to the end", .integer(0...10_000), default: .int(10)),
        ParameterSpec("scroll", "the scroll script: moves to the bottom or the top, one row at a time",
                      .script(["down", "up"]), default: .strings(["down", "up"])),
    ]
    public let report = ReportKind.lazyList

    public init() {}

    public func run(_ context: ScenarioContext) throws {
        for strategy in context.strategies {
            try runStrategy(strategy, context.discarding, rows: 3)
            try runStrategy(strategy, context, rows: context.options.int("rows"))
            context.progress("\(name): \(strategy)")
        }
    }

    private func makeList(_ strategy: String, rows: Int, _ options: ResolvedOptions) -> LazyList<FeedRow, FeedRowBody> {
        let creation: LazyList<FeedRow, FeedRowBody>.Policy =
            ["eager", "lazy-explicit-id", "lazy-conditional-root"].contains(strategy) ? .all : .visible
        let realization: LazyList<FeedRow, FeedRowBody>.Policy = strategy == "eager" ? .all : .visible
        let wrapped = strategy == "lazy-wrapped-conditional"
        return LazyList(totalItems: rows, pageSize: options.int("page_size"), loadThreshold: options.int("load_threshold"),
                        creation: creation, realization: realization,
                        makeRow: { FeedRow(item: $0) },
                        makeBody: { row, _ in FeedRowBody(row: row, wrapped: wrapped) })
    }

    private func runStrategy(_ strategy: String, _ context: ScenarioContext, rows: Int) throws {
        let viewport = context.options.int("viewport")
        let list = makeList(strategy, rows: rows, context.options)
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
