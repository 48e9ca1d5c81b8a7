/// Allocation sites as call trees, one per (component, strategy, kind): the user's frames
/// from the outermost in, each node with the bytes and allocations under it. What the
/// text tree (`profctl sites --tree`) and the icicle charts draw.
package final class SiteCallTree {
    package var bytes = 0
    package var allocations = 0
    /// Where the frame is ("File.swift:12"), from the first stack that passed through it; "" if unknown.
    package var location = ""
    package private(set) var children: [String: SiteCallTree] = [:]
    /// The children's names in the order they first appeared.
    package private(set) var order: [String] = []

    package init() {}

    package func child(_ name: String) -> SiteCallTree {
        if let node = children[name] { return node }
        let node = SiteCallTree()
        children[name] = node
        order.append(name)
        return node
    }

    /// One tree per "component / strategy / kind" of `rows`, in the order the groups first
    /// appear (at most `limit` of them; rows of further groups are left out), each node
    /// counting `bytes(row.counts)` and the allocations of the rows under it.
    package static func groups(_ rows: [SiteRow], stacks: [Int64: SiteStack], limit: Int = .max,
                               bytes: (SiteCounts) -> Int) -> [(title: String, root: SiteCallTree)] {
        var groups: [(title: String, root: SiteCallTree)] = []
        var index: [String: SiteCallTree] = [:]
        for row in rows {
            let title = "\(row.component) / \(row.strategy) / \(row.kind)"
            let root: SiteCallTree
            if let existing = index[title] { root = existing } else {
                guard groups.count < limit else { continue }
                root = SiteCallTree()
                index[title] = root
                groups.append((title, root))
            }
            var node = root
            node.bytes += bytes(row.counts)
            node.allocations += row.counts.allocations
            for frame in SiteFrame.userFrames(stacks[row.stackID]?.frames ?? [.unknown], site: row.site) {
                node = node.child(frame.function)
                if node.location.isEmpty { node.location = frame.location }
                node.bytes += bytes(row.counts)
                node.allocations += row.counts.allocations
            }
        }
        return groups
    }
}
