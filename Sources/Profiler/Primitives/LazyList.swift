import ProfilerRecording

/// A scrolling list that builds rows the way a declarative list does, in two stages:
/// *creating* a row makes its identity and top-level state; *realizing* it evaluates its
/// body (the views, with their nested state). Which rows get created and realized, and
/// when, is the policy under test.
///
/// Data arrives in pages: when the last visible row comes within `loadThreshold` rows
/// of the end of what is loaded, the next page is loaded, until `totalItems`.
package final class LazyList<Row: AnyObject, Body: AnyObject> {
    package enum Policy: Sendable {
        /// Every loaded item at once.
        case all
        /// Only the rows in the viewport.
        case visible
    }

    package let creation: Policy
    package let realization: Policy
    package let totalItems: Int
    package let pageSize: Int
    package let loadThreshold: Int
    private let makeRow: (Int) -> Row
    private let makeBody: (Row, Int) -> Body

    package private(set) var loadedItems = 0
    package private(set) var pagesLoaded = 0
    /// Created rows, by item index: kept for the life of the list.
    package private(set) var rows: [Int: Row] = [:]
    /// Realized bodies, by item index.
    package private(set) var bodies: [Int: Body] = [:]
    package private(set) var visible: Range<Int> = 0..<0
    package private(set) var maxVisible = 0

    package init(totalItems: Int, pageSize: Int = 30, loadThreshold: Int = 10, creation: Policy, realization: Policy,
                makeRow: @escaping (Int) -> Row, makeBody: @escaping (Row, Int) -> Body) {
        self.totalItems = totalItems
        self.pageSize = max(1, pageSize)
        self.loadThreshold = loadThreshold
        self.creation = creation
        self.realization = realization
        self.makeRow = makeRow
        self.makeBody = makeBody
    }

    /// Shows rows `offset ..< offset + viewport`, loading, creating, realizing and
    /// dropping as the policies say. Bodies that leave the viewport are dropped (their
    /// nested state with them) unless everything is realized; rows stay.
    /// `didRealize` runs for each newly realized body.
    package func scroll(to offset: Int, viewport: Int, probe: Probe,
                       didRealize: (Int, Body) -> Void = { _, _ in },
                       willDrop: (Int, Body) -> Void = { _, _ in }) throws {
        if loadedItems == 0 { try loadPage(probe) }
        // Room for the realized bodies up front, so that a realization is charged only for the body.
        if bodies.capacity < 2 * viewport { bodies.reserveCapacity(2 * viewport) }
        var window = clamp(offset, viewport)
        while loadedItems < totalItems && window.upperBound > loadedItems - loadThreshold {
            try loadPage(probe)
            window = clamp(offset, viewport)
        }
        if realization == .visible {
            for index in bodies.keys.sorted() where !window.contains(index) {
                if let body = bodies[index] { willDrop(index, body) }
                try probe.component("row-body").instance(index).measure(.release) { bodies[index] = nil }
            }
        }
        let toCreate = creation == .all ? 0..<loadedItems : window
        for index in toCreate where rows[index] == nil {
            try probe.component("row").instance(index).measure(.create) { rows[index] = makeRow(index) }
        }
        let toRealize = realization == .all ? 0..<loadedItems : window
        for index in toRealize where bodies[index] == nil {
            guard let row = rows[index] else { continue }
            let body = try probe.component("row-body").instance(index).measure(.realize) { () -> Body in
                let body = makeBody(row, index)
                bodies[index] = body
                return body
            }
            didRealize(index, body)
        }
        visible = window
        maxVisible = max(maxVisible, window.count)
    }

    /// Drops every body and row.
    package func removeAll(probe: Probe) throws {
        for index in bodies.keys.sorted() {
            try probe.component("row-body").instance(index).measure(.release) { bodies[index] = nil }
        }
        for index in rows.keys.sorted() {
            try probe.component("row").instance(index).measure(.release) { rows[index] = nil }
        }
    }

    private func clamp(_ offset: Int, _ viewport: Int) -> Range<Int> {
        let start = max(0, min(offset, max(0, loadedItems - viewport)))
        return start..<min(loadedItems, start + viewport)
    }

    private func loadPage(_ probe: Probe) throws {
        let count = min(pageSize, totalItems - loadedItems)
        guard count > 0 else { return }
        loadedItems += count
        pagesLoaded += 1
        rows.reserveCapacity(loadedItems)
        bodies.reserveCapacity(realization == .all ? loadedItems : bodies.count)
    }
}
