/// Keeps one element (and its state storage) per identity, the way a declarative UI
/// framework keeps a view's storage alive exactly as long as the view's identity.
///
/// `update` reconciles the store with a new list of identities: identities seen before
/// keep their element (and its state), new ones get a new element, and vanished ones
/// are released. Which identity an item gets is the caller's choice; that choice is
/// what the `identity` scenario compares.
public final class IdentityStore<ID: Hashable, Element: AnyObject> {
    public private(set) var elements: [ID: Element] = [:]

    public init() {}

    /// What one update did.
    public struct Changes: Sendable, Equatable {
        public var created = 0
        public var kept = 0
        public var released = 0
    }

    /// Reconciles with `identities` (in order; a duplicate identity maps its items onto
    /// one element). `make` builds an element; `configure` runs for every element with
    /// its position, new or kept. With a probe, creations and releases are measured.
    @discardableResult
    public func update(_ identities: [ID], probe: Probe? = nil,
                       make: (ID, Int) -> Element, configure: (Element, Int) -> Void) throws -> Changes {
        var changes = Changes()
        var seen = Set<ID>()
        seen.reserveCapacity(identities.count)
        // Room for every new element up front: an element is charged only for itself.
        elements.reserveCapacity(elements.count + identities.count)
        for (position, id) in identities.enumerated() {
            guard seen.insert(id).inserted else { continue }
            if let element = elements[id] {
                changes.kept += 1
                configure(element, position)
            } else {
                let element: Element
                if let probe {
                    element = try probe.instance(position).measure(.create) { () -> Element in
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
        let vanished = elements.keys.filter { !seen.contains($0) }
        for id in vanished {
            try release(id, instance: changes.released, probe: probe)
            changes.released += 1
        }
        return changes
    }

    /// Releases every element. The table keeps its storage (a later `update` reuses it),
    /// so each release gives back exactly what its element held.
    public func removeAll(probe: Probe? = nil) throws {
        for (index, id) in Array(elements.keys).enumerated() {
            try release(id, instance: index, probe: probe)
        }
    }

    /// Drops one element, under measurement when there is a probe (a `release` event).
    private func release(_ id: ID, instance: Int, probe: Probe?) throws {
        if let probe {
            try probe.instance(instance).measure(.release) { _ = elements.removeValue(forKey: id) }
        } else {
            elements.removeValue(forKey: id)
        }
    }
}
