/// A long-lived page (a live-streaming room) with many optional feature panels, most of
/// which a user never opens: built eagerly, or as lazy containers of which a script
/// realizes a fraction. Shows the break-even realization rate next to the measured one.
public struct LiveRoomScenario: Scenario {
    public let name = "live-room"
    public let summary = "a page with many optional feature panels, a fraction opened: eager vs lazy"
    public let baselineStrategy = "eager"
    public let strategies = ["eager", "lazy"]
    public let countParameter = "panels"
    public let parameters = [
        ParameterSpec("panels", "optional feature panels on the page (cycling through 6 kinds)", .integer(30...10_000), default: .int(30)),
        ParameterSpec("opened_percent", "share of the panels the script opens", .integer(0...100), default: .int(20)),
    ]
    public let report = ReportKind.liveRoom

    public init() {}

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

    public func run(_ context: ScenarioContext) throws {
        let count = context.options.int("panels")
        let percent = context.options.int("opened_percent")
        // Opens panels spread evenly over the page: panel i when the running share crosses a whole panel.
        let opened = Set((0..<count).filter { ($0 + 1) * percent / 100 > $0 * percent / 100 })
        for strategy in context.strategies {
            try runStrategy(strategy, count, opened, context.discarding)
            try runStrategy(strategy, count, opened, context)
            try context.metric("opened", Double(opened.count), strategy: strategy)
            try context.metric("panels", Double(count), strategy: strategy)
            context.progress("\(name): \(strategy)")
        }
    }

    private func runStrategy(_ strategy: String, _ count: Int, _ opened: Set<Int>, _ context: ScenarioContext) throws {
        let page = View()
        page.prepareToHost(count)
        func probe(_ i: Int) -> Probe {
            context.probe(component: Self.kinds[i % Self.kinds.count].name, strategy: strategy).instance(i)
        }
        if strategy == "eager" {
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
        } else {
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
