import Foundation
internal import ProfilerCatalog
import ProfilerModel
import ProfilerPrimitives
import ProfilerRecording

/// Seed experiment 5: identity decides lifetime. A list of N items gets one insertion at
/// the head under three identity choices (a stable database id, the row index, a fresh
/// UUID per update); one element toggles either between two branches (two identities)
/// or through a modifier (one identity).
package struct IdentityScenario: Scenario {
    package let name = "identity"
    package let summary = "stable, index and fresh ids on a head insertion; branch vs modifier toggle (seed 5)"
    /// Three identity choices for a list, and two ways to toggle one element.
    package enum Strategy: String, ScenarioStrategy {
        case stableID = "stable-id", indexID = "index-id", freshID = "fresh-id"
        case branch
        case singleElementModifier = "single-element-modifier"
    }

    package let baselineStrategy = Strategy.stableID.rawValue
    package let strategies = Strategy.names
    package let steps = ["initial", "insert-head", "toggle", "release"]
    package let metrics = ["state_resets"]
    package let countParameter = "items"
    package let parameters = [
        ParameterSpec("items", "items in the list before the insertion", .integer(1...100_000), default: .int(50)),
        ParameterSpec("toggles", "branch toggles", .integer(1...10_000), default: .int(1)),
    ]
    package let report = ReportDeclaration(
        name: "identity", view: "identity_report",
        summary: "Elements created on the first render and on the change (head insertion or branch toggle), elements released by the change, item states reset, bytes per element.",
        // metric_summary is read once and joined, not in a subquery per row: that was
        // evaluated again for every row the view returns (seconds over a long history).
        query: """
            WITH changes AS (
                SELECT run_key, run_id, strategy, MIN(first_seq) AS ordinal,
                       CAST(SUM(CASE WHEN step = 'initial' AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_initially,
                       CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'create' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS created_on_change,
                       CAST(SUM(CASE WHEN step IN ('insert-head', 'toggle') AND kind = 'release' THEN events ELSE 0 END) AS BIGINT) / MAX(repeats) AS released_on_change,
                       round(CAST(SUM(CASE WHEN kind = 'create' THEN requested_bytes ELSE 0 END) AS DOUBLE PRECISION)
                             / NULLIF(SUM(CASE WHEN kind = 'create' THEN events ELSE 0 END), 0), 2) AS bytes_per_element
                FROM step_summary WHERE report = 'identity'
                GROUP BY run_key, run_id, strategy
            ),
            resets AS (
                SELECT run_key, strategy, value FROM metric_summary WHERE name = 'state_resets'
            )
            SELECT c.run_id, c.strategy, c.created_initially, c.created_on_change, c.released_on_change,
                   CAST(trunc(r.value) AS BIGINT) AS state_resets, c.bytes_per_element
            FROM changes c LEFT JOIN resets r ON r.run_key = c.run_key AND r.strategy = c.strategy
            ORDER BY c.run_key, c.ordinal
            """,
        columns: [
            .label("strategy", "the identity choice"),
            .measured("created_initially", .count, "elements created on the first render"),
            .measured("created_on_change", .count, "elements created by the insertion or toggle"),
            .measured("released_on_change", .count, "elements released by the insertion or toggle"),
            .measured("state_resets", .count, "item states lost"),
            .measured("bytes_per_element", .bytes, "live bytes per element created"),
        ],
        charts: [
            .perStrategy("What the change did", unit: "count", ["created_on_change", "released_on_change", "state_resets"]),
        ])

    package init() {}

    /// Either a database id, or a position, or a fresh UUID: what a list row is keyed by.
    enum Key: Hashable {
        case id(Int)
        case index(Int)
        case fresh(UUID)
        case branch(Bool)
    }

    package func run(_ context: ScenarioContext) throws {
        let count = context.options.int("items")
        for strategy in try context.strategies(Strategy.self) {
            try runStrategy(strategy, count, context.discarding)
            try runStrategy(strategy, count, context)
            context.progress("\(name): \(strategy.rawValue)")
        }
    }

    private func runStrategy(_ typed: Strategy, _ count: Int, _ context: ScenarioContext) throws {
        let strategy = typed.rawValue
        let probe = context.probe(component: "element", strategy: strategy)
        let store = IdentityStore<Key, ListElement>()
        switch typed {
        case .stableID: try insertAtHead(count, store, probe, context, strategy) { items in items.map { .id($0) } }
        case .indexID: try insertAtHead(count, store, probe, context, strategy) { items in items.indices.map { .index($0) } }
        case .freshID: try insertAtHead(count, store, probe, context, strategy) { items in items.map { _ in .fresh(UUID()) } }
        case .branch: try toggle(twoIdentities: true, store, probe, context, strategy)
        case .singleElementModifier: try toggle(twoIdentities: false, store, probe, context, strategy)
        }
        try context.step("release", strategy: strategy) { try store.removeAll(probe: probe) }
    }

    /// A list of `count` items, then one inserted at the head; `keys` gives each item its identity.
    private func insertAtHead(_ count: Int, _ store: IdentityStore<Key, ListElement>, _ probe: Probe,
                              _ context: ScenarioContext, _ strategy: String, keys: ([Int]) -> [Key]) throws {
        var items = Array(1...count)
        try context.step("initial", strategy: strategy) {
            try update(store, keys(items), items, probe)
        }
        try context.step("insert-head", strategy: strategy) {
            let before = stateShown(store)
            items.insert(count + 1, at: 0)
            try update(store, keys(items), items, probe)
            try context.metric("state_resets", Double(resets(before, stateShown(store))), strategy: strategy)
        }
    }

    /// One element toggled: between two branches (two identities) or through a modifier (one).
    private func toggle(twoIdentities: Bool, _ store: IdentityStore<Key, ListElement>, _ probe: Probe,
                        _ context: ScenarioContext, _ strategy: String) throws {
        let toggles = context.options.int("toggles")
        var flag = true
        func key() -> [Key] { twoIdentities ? [.branch(flag)] : [.branch(true)] }
        try context.step("initial", strategy: strategy) {
            try update(store, key(), [1], probe)
        }
        try context.step("toggle", strategy: strategy) {
            var total = 0
            for _ in 0..<toggles {
                let before = stateShown(store)
                flag.toggle()
                try update(store, key(), [1], probe) { element in element.modifier = flag ? 1 : 0 }
                total += resets(before, stateShown(store))
            }
            try context.metric("state_resets", Double(total), strategy: strategy)
        }
    }

    /// Which state storage each item is shown with.
    private func stateShown(_ store: IdentityStore<Key, ListElement>) -> [Int: ObjectIdentifier] {
        Dictionary(store.elements.values.map { ($0.item, ObjectIdentifier($0.state)) }, uniquingKeysWith: { a, _ in a })
    }

    /// Items shown before whose state storage is not the one they are shown with now:
    /// recreated (a new identity) or handed another item's storage (an index identity).
    private func resets(_ before: [Int: ObjectIdentifier], _ after: [Int: ObjectIdentifier]) -> Int {
        before.filter { item, state in after[item] != state }.count
    }

    @discardableResult
    private func update(_ store: IdentityStore<Key, ListElement>, _ keys: [Key], _ items: [Int], _ probe: Probe,
                        modify: (ListElement) -> Void = { _ in }) throws -> IdentityStore<Key, ListElement>.Changes {
        try store.update(keys, probe: probe,
                         make: { _, position in ListElement(item: items[position], title: "Item") },
                         configure: { element, position in
                             element.item = items[position]
                             modify(element)
                         })
    }
}
