import Foundation
import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerStore
@testable import ProfilerSupport

@Suite("Image caches")
struct ImageCacheTests {
    let catalog = ImageCatalog(sizes: ["a": Size(width: 10, height: 10)])
    let probe = Probe(sink: DiscardingSink(), component: "a", strategy: "test")

    @Test("the strong cache shares one image and keeps it after every user lets go")
    func strong() throws {
        let cache = StrongImageCache(catalog: catalog)
        var first: Image? = try cache.image(named: "a", probe: probe)
        let second = try cache.image(named: "a", probe: probe)
        #expect(first === second)
        first = nil
        #expect(cache.entries["a"] != nil)
    }

    @Test("the weak cache shares while used and forgets the entry when the last user lets go")
    func weak() throws {
        let cache = WeakImageCache(catalog: catalog)
        var first: Image? = try cache.image(named: "a", probe: probe)
        var second: Image? = try cache.image(named: "a", probe: probe)
        #expect(first === second)
        first = nil
        #expect(cache.entries["a"]?.image != nil)
        second = nil
        #expect(cache.entries.isEmpty)
        #expect(first == nil && second == nil)
    }

    @Test("the sweep drops only what nobody else holds, and a sweep while one runs is skipped")
    func sweep() throws {
        let cache = SweepingImageCache(catalog: ImageCatalog(sizes: ["a": Size(width: 2, height: 2), "b": Size(width: 2, height: 2)]))
        let held = try cache.image(named: "a", probe: probe)
        _ = try cache.image(named: "b", probe: probe)
        // Holding the entries' lock keeps the first sweep waiting, so the second idle turn finds it running.
        cache.strong.lock.lock()
        try cache.idle(probe: probe)
        try cache.idle(probe: probe)
        cache.strong.lock.unlock()
        cache.waitUntilQuiet()
        let stats = cache.statistics
        #expect(stats.sweeps == 1 && stats.skipped == 1)
        #expect(cache.strong.entries.keys.sorted() == ["a"])
        _ = held
    }

    @Test("no cache decodes a new image every time")
    func uncached() throws {
        let cache = UncachedImages(catalog: catalog)
        #expect(try cache.image(named: "a", probe: probe) !== cache.image(named: "a", probe: probe))
        #expect(throws: UnknownImageError.self) { _ = try cache.image(named: "missing", probe: probe) }
    }
}

@Suite("Lazy list")
struct LazyListTests {
    let probe = Probe(sink: DiscardingSink(), component: "row", strategy: "test")

    func list(_ creation: LazyList<FeedRow, FeedRowBody>.Policy, _ realization: LazyList<FeedRow, FeedRowBody>.Policy) -> LazyList<FeedRow, FeedRowBody> {
        LazyList(totalItems: 100, pageSize: 30, loadThreshold: 10, creation: creation, realization: realization,
                 makeRow: { FeedRow(item: $0) }, makeBody: { row, _ in FeedRowBody(row: row, wrapped: false) })
    }

    @Test("a lazy list builds only the viewport and loads a page when within the threshold of the end")
    func lazyAndPaged() throws {
        let lazy = list(.visible, .visible)
        try lazy.scroll(to: 0, viewport: 10, probe: probe)
        #expect(lazy.loadedItems == 30 && lazy.rows.count == 10 && lazy.bodies.count == 10)
        try lazy.scroll(to: 10, viewport: 10, probe: probe)
        #expect(lazy.loadedItems == 30)
        try lazy.scroll(to: 11, viewport: 10, probe: probe)
        #expect(lazy.loadedItems == 60 && lazy.pagesLoaded == 2)
        #expect(lazy.bodies.keys.sorted() == Array(11..<21))
        // Rows once created stay (their top-level state); bodies come and go.
        #expect(lazy.rows.count == 21)
    }

    @Test("creating everything but realizing the viewport, and the eager list")
    func policies() throws {
        let explicit = list(.all, .visible)
        try explicit.scroll(to: 0, viewport: 10, probe: probe)
        #expect(explicit.rows.count == 30 && explicit.bodies.count == 10)
        let eager = list(.all, .all)
        try eager.scroll(to: 0, viewport: 10, probe: probe)
        #expect(eager.rows.count == 30 && eager.bodies.count == 30)
        try eager.removeAll(probe: probe)
        #expect(eager.rows.isEmpty && eager.bodies.isEmpty)
    }
}

@Suite("Identity store")
struct IdentityStoreTests {
    @Test("kept identities keep their element; new ones are created, vanished ones released; duplicates share one")
    func reconcile() throws {
        let store = IdentityStore<Int, FeedRow>()
        var first = try store.update([1, 2, 3], make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
        #expect(first == .init(created: 3, kept: 0, released: 0))
        let two = store.elements[2]
        first = try store.update([4, 2, 2], make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
        #expect(first == .init(created: 1, kept: 1, released: 2))
        #expect(store.elements[2] === two)
        try store.removeAll()
        #expect(store.elements.isEmpty)
    }

    @Test("every release (on a change and in removeAll) frees what its element's create took, allocating nothing")
    func releasesGiveBack() throws {
        let events = try onOwnThread { () throws -> [Event] in
            let sink = CollectingSink()
            let probe = Probe(sink: sink, component: "row", strategy: "test")
            let store = IdentityStore<Int, FeedRow>()
            try store.update(Array(1...20), probe: probe, make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
            try store.update(Array(11...30), probe: probe, make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
            try store.removeAll(probe: probe)
            return sink.events
        }
        let creates = events.filter { $0.kind == .create }, releases = events.filter { $0.kind == .release }
        #expect(creates.count == 30 && releases.count == 30)
        let perElement = try #require(creates.first).netLiveBytes
        #expect(perElement > 0)
        for release in releases {
            #expect(release.netLiveBytes == -perElement)
            #expect(release.allocations == 0 && release.frees > 0)
        }
    }

    @Test("an element keeps its instance number for life: a head insertion gets a new number, a release uses its element's")
    func instanceNumbersFollowTheElement() throws {
        let events = try onOwnThread { () throws -> [Event] in
            let sink = CollectingSink()
            let probe = Probe(sink: sink, component: "row", strategy: "test")
            let store = IdentityStore<Int, FeedRow>()
            try store.update([1, 2, 3], probe: probe, make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
            // A head insertion (position 0) and the second element's release.
            try store.update([4, 1, 3], probe: probe, make: { id, _ in FeedRow(item: id) }, configure: { _, _ in })
            try store.removeAll(probe: probe)
            return sink.events
        }
        let creates = events.filter { $0.kind == .create }.map(\.instance)
        let releases = events.filter { $0.kind == .release }.map(\.instance)
        #expect(creates == [0, 1, 2, 3])
        // Element 2 (instance 1) goes first; removeAll releases in the order elements were built.
        #expect(releases == [1, 0, 2, 3])
    }
}

@Suite("Layout template")
struct LayoutTemplateTests {
    @Test("the mail cell template parses to 4 labels, 2 images, 1 button and builds the cell")
    func mailCell() throws {
        let template = try LayoutTemplate.parse(LayoutTemplate.mailCellSource)
        #expect(template.elements.map(\.kind).sorted() == ["button", "image", "image", "label", "label", "label", "label"])
        let cell = try template.instantiate(.sample(3), width: 375, height: 88)
        #expect(cell.subviews.count == 7)
        #expect(cell.sender.text == "Sender 3")
        #expect(cell.date.frame.origin.x == 305)
    }

    @Test("a malformed line names its number")
    func malformed() {
        #expect(throws: LayoutTemplate.ParseError.self) { _ = try LayoutTemplate.parse("label only three") }
    }

    @Test("a drawn cell owns width x height x 4 x scale squared bytes of pixels")
    func drawnCell() {
        let cell = DrawnMailCell(.sample(1), width: 375, height: 88, scale: 2)
        #expect(cell.bitmap.count == 375 * 88 * 4 * 4)
        #expect(cell.bitmap.contains { $0 != 0 })
    }
}
