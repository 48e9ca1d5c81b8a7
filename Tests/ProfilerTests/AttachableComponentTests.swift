import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

/// Counts calls from whichever thread records.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var attached = 0, detached = 0
    func attach() { lock.lock(); attached += 1; lock.unlock() }
    func detach() { lock.lock(); detached += 1; lock.unlock() }
    var counts: (attached: Int, detached: Int) { lock.lock(); defer { lock.unlock() }; return (attached, detached) }
}

/// A user's own view type: not a subclass of the stand-in View.
private final class Panel: AttachableComponent {
    /// Every attach and detach, counted (the suite runs its tests one at a time).
    static let tally = Tally()
    var children: [Panel] = []
    weak var owner: Panel?
    var title = "panel"

    static func parent(hosting count: Int) -> Panel {
        let parent = Panel()
        parent.children.reserveCapacity(count)
        return parent
    }

    func attach(to parent: Panel) {
        parent.children.append(self)
        owner = parent
        Self.tally.attach()
    }

    func detach() {
        if let owner, let index = owner.children.lastIndex(where: { $0 === self }) { owner.children.remove(at: index) }
        owner = nil
        Self.tally.detach()
    }
}

@Suite("AttachableComponent: a user's own view type in lazy containers and comparisons", .serialized)
struct AttachableComponentTests {
    @Test("a lazy container attaches an AttachableComponent to its parent when realized, and detaches it on remove")
    func lazyContainer() {
        let parent = Panel.parent(hosting: 1)
        let container = LazyContainer<Panel, Panel> { Panel() }
        #expect(!container.isRealized && parent.children.isEmpty)
        let panel = container.ensure(in: parent)
        #expect(parent.children.count == 1 && parent.children.first === panel && panel.owner === parent)
        #expect(container.ensure(in: parent) === panel, "built once")
        container.remove()
        #expect(parent.children.isEmpty && panel.owner == nil && !container.isRealized)
    }

    @Test("a comparison attaches every eager and realized instance of a user's own view type; realized, each costs the panel plus its container")
    func comparison() throws {
        let comparison = ComponentComparison(name: "panels", summary: "a user's own view type",
                                             components: [.component("Panel") { Panel() }], strategies: [.eager, .lazyRealized])
        let temp = try TemporaryDatabase()
        let before = Panel.tally.counts
        try recordOnOwnThread(comparison, database: temp.path, options: RecordOptions(instances: 25))
        let after = Panel.tally.counts
        // 25 measured instances and one warm-up instance, for each of the two strategies.
        #expect(after.attached - before.attached == 2 * 26)
        #expect(after.detached - before.detached == 2 * 26)
        let db = try ProfileStore.openForReading(path: temp.path)
        let rows = try db.rows("""
            SELECT strategy, min_instance_requested, max_instance_requested, requested_bytes, released_requested_bytes FROM rollups ORDER BY ordinal
            """)
        #expect(rows.count == 2)
        let eager = try #require(rows.first), realized = try #require(rows.last)
        #expect(eager[1] == eager[2] && realized[1] == realized[2], "every instance costs the same")
        #expect((realized[1].int64 ?? 0) == (eager[1].int64 ?? -1) + 48, "realized: the panel plus its 48-byte container")
        for row in rows { #expect(row[3] == row[4], "released under measurement") }
    }
}
