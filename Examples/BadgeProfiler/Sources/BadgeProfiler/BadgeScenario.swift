import Profiler
import ProfilerCatalog  // the stand-in UIKit's View

/// Badges on every row of an inbox: built up front, or in lazy containers of which only
/// the rows with unread mail realize theirs.
struct BadgeScenario: Scenario {
    let name = "badge"
    let summary = "inbox badges: eager vs lazy, with a share of rows unread"
    let baselineStrategy = "eager"
    let strategies = ["eager", "lazy"]
    let countParameter = "rows"
    let parameters = [
        ParameterSpec("rows", "inbox rows", .integer(1...100_000), default: .int(200)),
        ParameterSpec("unread_percent", "rows with unread mail", .integer(0...100), default: .int(10)),
    ]
    let steps = ["build", "release"]
    let report = badgeReport

    func run(_ context: ScenarioContext) throws {
        let rows = context.options.int("rows")
        let unread = context.options.int("unread_percent")
        for strategy in context.strategies {
            for pass in [context.discarding, context] {
                try record(strategy, rows: pass === context ? rows : 1, unread: unread, pass)
            }
            context.progress("badge: \(strategy)")
        }
    }

    private func record(_ strategy: String, rows: Int, unread: Int, _ context: ScenarioContext) throws {
        let probe = context.probe(component: "Badge", strategy: strategy)
        let inbox = View()
        inbox.prepareToHost(rows)
        if strategy == "eager" {
            var badges: [Badge] = []
            try context.step("build", strategy: strategy) {
                for row in 0..<rows {
                    badges.append(try probe.instance(row).measure(.create) {
                        let badge = Badge(count: row)
                        inbox.addSubview(badge)
                        return badge
                    })
                }
            }
            try context.step("release", strategy: strategy) {
                for row in (0..<rows).reversed() {
                    try probe.instance(row).measure(.release) { badges.removeLast().removeFromSuperview() }
                }
            }
        } else {
            var containers: [LazyContainer<Badge, View>] = []
            try context.step("build", strategy: strategy) {
                for row in 0..<rows {
                    let container = try LazyContainer<Badge, View>.make(probe: probe.instance(row)) { Badge(count: 3) }
                    if row * 100 < rows * unread { try container.ensure(in: inbox, probe: probe.instance(row)) }
                    containers.append(container)
                }
            }
            try context.step("release", strategy: strategy) {
                for row in (0..<rows).reversed() {
                    if containers[row].isRealized { try containers[row].remove(probe: probe.instance(row)) }
                    try probe.instance(row).measure(.release) { _ = containers.removeLast() }
                }
            }
        }
    }
}

private extension ScenarioContext {
    static func === (a: ScenarioContext, b: ScenarioContext) -> Bool { a.sink === b.sink }
}
