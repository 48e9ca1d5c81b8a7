import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("Lazy container")
struct LazyContainerTests {
    @Test("builds on ensure, once; custom add and first-add hooks run; remove drops the component")
    func lifecycle() throws {
        let parent = View()
        var built = 0
        var firstAdds = 0
        var adds = 0
        let container = LazyContainer<Label, View> { built += 1; return Label(text: "badge") }
        #expect(!container.isRealized && built == 0)
        let label = container.ensure(in: parent, add: { child, host in adds += 1; host.addSubview(child) },
                                     onFirstAdd: { _ in firstAdds += 1 })
        #expect(container.isRealized && built == 1 && adds == 1 && firstAdds == 1)
        #expect(parent.subviews.first === label && container.parent === parent)
        #expect(container.ensure(in: parent) === label)
        #expect(built == 1)
        var detached = 0
        container.remove(detach: { detached += 1; $0.removeFromSuperview() })
        #expect(!container.isRealized && detached == 1 && parent.subviews.isEmpty && container.parent == nil)
    }

    @Test("instrumented calls emit create, realize and release with the measured bytes")
    func events() throws {
        let events = try onOwnThread { try Self.recordEvents() }
        #expect(events.map(\.kind) == [.create, .realize, .release])
        #expect(events[0].netLiveBytes == 48)
        #expect(events[1].netLiveBytes > 48)
        #expect(events[2].netLiveBytes == -events[1].netLiveBytes)
    }

    static func recordEvents() throws -> [Event] {
        // The second pass is the measured one: the first use of a type allocates once per process.
        var events: [Event] = []
        for _ in 0..<2 {
            let sink = CollectingSink()
            let probe = Probe(sink: sink, component: "Label", strategy: "lazy-realized")
            let parent = View()
            parent.prepareToHost(1)
            let container = try LazyContainer<Label, View>.make(probe: probe) { Label(text: "hello") }
            try container.ensure(in: parent, probe: probe)
            try container.remove(probe: probe)
            events = sink.events
        }
        return events
    }
}
