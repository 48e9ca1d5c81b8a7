import ProfilerRecording

/// Keeps one element (and its state storage) per identity, the way a declarative UI
/// framework keeps a view's storage alive exactly as long as the view's identity.
///
/// `update` reconciles the store with a new list of identities: identities seen before
/// keep their element (and its state), new ones get a new element, and vanished ones
/// are released. Which identity an item gets is the caller's choice; that choice is
/// what the `identity` scenario compares.
package final class IdentityStore<ID: Hashable, Element: AnyObject> {
    package private(set) var elements: [ID: Element] = [:]
    /// The instance number each element got when it was built, used again by its
    /// release: figures follow the element, not its list position (a head insertion
    /// would otherwise reuse instance 0) nor the table's hash order.
    private var instanceNumbers: [ID: Int] = [:]
    /// The next instance number: one per element built over the store's life.
    private var nextInstance = 0

    package init() {}

    /// What one update did.
    package struct Changes: Sendable, Equatable {
        package var created = 0
        package var kept = 0
        package var released = 0
    }

    /// Reconciles with `identities` (in order; a duplicate identity maps its items onto
    /// one element). `make` builds an element; `configure` runs for every element with
    /// its position, new or kept. With a probe, creations and releases are measured.
    @discardableResult
    package func update(_ identities: [ID], probe: Probe? = nil,
                       make: (ID, Int) -> Element, configure: (Element, Int) -> Void) throws -> Changes {
        var changes = Changes()
        var seen = Set<ID>()
        seen.reserveCapacity(identities.count)
        // Room for every new element up front: an element is charged only for itself.
        elements.reserveCapacity(elements.count + identities.count)
        instanceNumbers.reserveCapacity(elements.count + identities.count)
        for (position, id) in identities.enumerated() {
            guard seen.insert(id).inserted else { continue }
            if let element = elements[id] {
                changes.kept += 1
                configure(element, position)
            } else {
                let element: Element
                let instance = nextInstance
                nextInstance += 1
                instanceNumbers[id] = instance
                if let probe {
                    element = try probe.instance(instance).measure(.create) { () -> Element in
                        let built = make(id, position)
                        elements[id] = built
                        return built
                    }
                } else {
                    element = make(id, position)
                    elements[id] = element
                }
                changes.created += 1
                configure(element, position)
            }
        }
        // The identities to release, copied out first: removing from `elements` while
        // iterating its own `keys` would copy the whole table on the first removal (the
        // iterator still shares its storage) and keep every element alive in that copy,
        // so each release would measure the copy's bytes and free nothing.
        // In the order they were built, so the events do not depend on hash order.
        for id in builtOrder(elements.keys.filter { !seen.contains($0) }) {
            try release(id, probe: probe)
            changes.released += 1
        }
        return changes
    }

    /// Releases every element. The table keeps its storage (a later `update` reuses it),
    /// so each release gives back exactly what its element held.
    package func removeAll(probe: Probe? = nil) throws {
        for id in builtOrder(Array(elements.keys)) {
            try release(id, probe: probe)
        }
    }

    /// Identities sorted by the instance number their element was built with.
    private func builtOrder(_ ids: [ID]) -> [ID] {
        ids.sorted { (instanceNumbers[$0] ?? 0) < (instanceNumbers[$1] ?? 0) }
    }

    /// Drops one element, under measurement when there is a probe (a `release` event
    /// carrying the instance number its element was built with).
    private func release(_ id: ID, probe: Probe?) throws {
        // The number is removed outside the measurement: only the element's bytes count.
        let instance = instanceNumbers.removeValue(forKey: id) ?? 0
        if let probe {
            try probe.instance(instance).measure(.release) { _ = elements.removeValue(forKey: id) }
        } else {
            elements.removeValue(forKey: id)
        }
    }
}
