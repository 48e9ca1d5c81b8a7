import Foundation

/// Seed experiment 5: identity decides lifetime. A list of N items gets one insertion at
/// the head under three identity choices (a stable database id, the row index, a fresh
/// UUID per update); one element toggles either between two branches (two identities)
/// or through a modifier (one identity).
public struct IdentityScenario: Scenario {
    public let name = "identity"
    public let summary = "stable, index and fresh ids on a head insertion; branch vs modifier toggle (seed 5)"
    public let baselineStrategy = "stable-id"
    public let strategies = ["stable-id", "index-id", "fresh-id", "branch", "single-element-modifier"]
    public let countParameter = "items"
    public let parameters = [
        ParameterSpec("items", "items in the list before the insertion", .integer(1...100_000), default: .int(50)),
        ParameterSpec("toggles", "branch toggles", .integer(1...10_000), default: .int(1)),
    ]
    public let report = ReportKind.identity

    public init() {}

    /// Either a database id, or a position, or a fresh UUID: what a list row is keyed by.
    enum Key: Hashable {
        case id(Int)
        case index(Int)
        case fresh(UUID)
        case branch(Bool)
    }

    public func run(_ context: ScenarioContext) throws {
        let count = context.options.int("items")
        for strategy in context.strategies {
            try runStrategy(strategy, count, context.discarding)
            try runStrategy(strategy, count, context)
            context.progress("\(name): \(strategy)")
        }
    }

    private func runStrategy(_ strategy: String, _ count: Int, _ context: ScenarioContext) throws {
        let probe = context.probe(component: "element", strategy: strategy)
        let store = IdentityStore<Key, ListElement>()
        var items = Array(1...count)
        switch strategy {
        case "stable-id", "index-id", "fresh-id":
            func keys() -> [Key] {
                switch strategy {
                case "stable-id": items.map { .id($0) }
                case "index-id": items.indices.map { .index($0) }
                default: items.map { _ in .fresh(UUID()) }
                }
            }
            try context.step("initial", strategy: strategy) {
                try update(store, keys(), items, probe)
            }
            try context.step("insert-head", strategy: strategy) {
                let before = stateShown(store)
                items.insert(count + 1, at: 0)
                try update(store, keys(), items, probe)
                try context.metric("state_resets", Double(resets(before, stateShown(store))), strategy: strategy)
            }
        default:
            let toggles = context.options.int("toggles")
            var flag = true
            func key() -> [Key] { strategy == "branch" ? [.branch(flag)] : [.branch(true)] }
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
        try context.step("release", strategy: strategy) { try store.removeAll(probe: probe) }
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
