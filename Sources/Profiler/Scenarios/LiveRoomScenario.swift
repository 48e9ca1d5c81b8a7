internal import ProfilerCatalog
import ProfilerModel
import ProfilerPrimitives
import ProfilerRecording

/// A long-lived page (a live-streaming room) with many optional feature panels, most of
/// which a user never opens: built eagerly, or as lazy containers of which a script
/// realizes a fraction. Shows the break-even realization rate next to the measured one.
package struct LiveRoomScenario: Scenario {
    package let name = "live-room"
    package let summary = "a page with many optional feature panels, a fraction opened: eager vs lazy"
    /// Every panel built with the page, or each in a lazy container.
    package enum Strategy: String, ScenarioStrategy {
        case eager, lazy
    }

    package let baselineStrategy = Strategy.eager.rawValue
    package let strategies = Strategy.names
    package let steps = ["open-page", "use", "close-page"]
    package let metrics = ["opened", "panels"]
    package let countParameter = "panels"
    package let parameters = [
        ParameterSpec("panels", "optional feature panels on the page (cycling through 6 kinds)", .integer(30...10_000), default: .int(30)),
        ParameterSpec("opened_percent", "share of the panels the script opens", .integer(0...100), default: .int(20)),
    ]
    package let report = ReportDeclaration(
        name: "live-room", view: "live_room_report",
        summary: "The whole page's bytes per strategy (every panel's create and realize), panels opened, and for `lazy` `break_even_pct` (NULL, printed `never`, when the containers alone cost as much as the eager page) next to `realized_pct`.",
        query: """
            WITH totals AS (
                SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
                       CAST(SUM(CASE WHEN kind IN ('create', 'realize') THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS page_bytes,
                       CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_bytes
                FROM step_summary WHERE report = 'live-room'
                GROUP BY run_key, run_id, strategy
            )
            SELECT t.run_id, t.strategy,
                   CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels')) AS BIGINT) AS panels,
                   CAST(trunc((SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')) AS BIGINT) AS opened,
                   t.page_bytes,
                   e.page_bytes - t.page_bytes AS saved_bytes,
                   round(100.0 * CAST(e.page_bytes - t.page_bytes AS DOUBLE PRECISION) / NULLIF(e.page_bytes, 0), 2) AS savings_pct,
                   CASE WHEN t.strategy = 'lazy' AND t.created_bytes < e.page_bytes
                        THEN round(100.0 * (1 - CAST(t.created_bytes AS DOUBLE PRECISION) / e.page_bytes), 2) END AS break_even_pct,
                   CASE WHEN t.strategy = 'lazy' THEN round(100.0 *
                       (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'opened')
                       / (SELECT value FROM metric_summary m WHERE m.run_key = t.run_key AND m.strategy = t.strategy AND m.name = 'panels'), 2) END AS realized_pct
            FROM totals t
            LEFT JOIN totals e ON e.run_key = t.run_key AND e.strategy = 'eager'
            ORDER BY t.run_key, t.ordinal
            """,
        columns: [
            .label("strategy", "how the panels are built"),
            .shown("panels", .count, "panels on the page (an input)"),
            .shown("opened", .count, "panels the script opened (an input)"),
            .measured("page_bytes", .bytes, "bytes of the whole page: every panel's create and realize"),
            .derived("saved_bytes", .bytes, "the eager page's bytes minus this one's"),
            .derived("savings_pct", .percent, "saved bytes as a share of the eager page's"),
            .derived("break_even_pct", .percent, "lazy: the realized share below which lazy wins; NULL (never) where it cannot"),
            .shown("realized_pct", .percent, "lazy: the share the script realized (an input)"),
        ],
        charts: [
            .perStrategy("Bytes of the whole page", unit: "bytes", ["page_bytes"]),
            .perStrategy("Realized share against break-even", unit: "%", ["realized_pct", "break_even_pct"]),
        ])

    package init() {}

    /// The panel kinds, smallest to largest: all built from the catalog. Each factory is a
    /// plain function, so a container holding it carries no closure context.
    static let kinds: [(name: String, make: @Sendable () -> View)] = [
        ("badge", { Label(text: "LIVE") }),
        ("follow-button", { Button(title: "Follow") }),
        ("gift-icon", { ImageView(image: Image.sampleIcon) }),
        ("comment-row", { MailCell.handBuilt(.sample(1), width: 320, height: 60) }),
        ("poll-card", { PanelCard(rows: 4) }),
        ("stage-preview", { DrawnMailCell(.sample(2), width: 160, height: 90, scale: 2) }),
    ]

    package func run(_ context: ScenarioContext) throws {
        let count = context.options.int("panels")
        let percent = context.options.int("opened_percent")
        // Opens panels spread evenly over the page: panel i when the running share crosses a whole panel.
        let opened = Set((0..<count).filter { ($0 + 1) * percent / 100 > $0 * percent / 100 })
        for typed in try context.strategies(Strategy.self) {
            let strategy = typed.rawValue
            try runStrategy(typed, count, opened, context.discarding)
            try runStrategy(typed, count, opened, context)
            try context.metric("opened", Double(opened.count), strategy: strategy)
            try context.metric("panels", Double(count), strategy: strategy)
            context.progress("\(name): \(strategy)")
        }
    }

    private func runStrategy(_ typed: Strategy, _ count: Int, _ opened: Set<Int>, _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        let page = View()
        page.prepareToHost(count)
        func probe(_ i: Int) -> Probe {
            context.probe(component: Self.kinds[i % Self.kinds.count].name, strategy: strategy).instance(i)
        }
        switch typed {
        case .eager:
            var panels: [View] = []
            try context.step("open-page", strategy: strategy) {
                for i in 0..<count {
                    panels.append(try probe(i).measure(.create) {
                        let panel = Self.kinds[i % Self.kinds.count].make()
                        page.addSubview(panel)
                        return panel
                    })
                }
            }
            try context.step("use", strategy: strategy) {}
            try context.step("close-page", strategy: strategy) {
                for i in (0..<count).reversed() {
                    try probe(i).measure(.release) { panels.removeLast().removeFromSuperview() }
                }
            }
        case .lazy:
            var containers: [LazyContainer<View, View>] = []
            try context.step("open-page", strategy: strategy) {
                for i in 0..<count {
                    containers.append(try LazyContainer<View, View>.make(probe: probe(i), Self.kinds[i % Self.kinds.count].make))
                }
            }
            try context.step("use", strategy: strategy) {
                for i in opened.sorted() { try containers[i].ensure(in: page, probe: probe(i)) }
            }
            try context.step("close-page", strategy: strategy) {
                for i in (0..<count).reversed() {
                    if containers[i].isRealized { try containers[i].remove(probe: probe(i)) }
                    try probe(i).measure(.release) { _ = containers.removeLast() }
                }
            }
        }
    }
}

/// A card with a title and rows of options (a poll, a gift list): a mid-sized panel.
final class PanelCard: View {
    let title: Label
    let options: [Button]

    init(rows: Int) {
        title = Label(text: "Poll")
        options = (0..<rows).map { Button(title: "Option \($0 + 1)") }
        super.init(frame: .zero)
        addSubview(title)
        for option in options { addSubview(option) }
    }
}
