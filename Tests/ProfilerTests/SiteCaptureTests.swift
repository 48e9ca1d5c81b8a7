import Foundation
import Testing
import ProfctlTestSupport
import Profiler
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
#if canImport(Glibc)
import Glibc
#endif

// Two functions of known names and sizes: the known path's two sites.
@inline(never)
func sitesKnownPathSmall() -> UnsafeMutableRawPointer? { keep(malloc(200)) }

@inline(never)
func sitesKnownPathLarge() -> UnsafeMutableRawPointer? { keep(malloc(3000)) }

/// Capture is process-wide: one test at a time, each filtering its own component's sites.
@Suite("Allocation sites, captured in process", .serialized)
struct SiteCaptureTests {
    @Test("a component allocating through two named functions shows exactly those two sites, names and bytes")
    func knownPath() throws {
        let component = "known-path-\(UUID().uuidString)"
        try SiteCapture.shared.start(depth: SiteCapture.defaultDepth)
        let captured: CapturedSites
        do {
            try onOwnThread {
                let probe = Probe(sink: CollectingSink(), component: component, strategy: "plain")
                var blocks: [UnsafeMutableRawPointer?] = []
                for i in 0..<3 {
                    let pair = try probe.instance(i).measure(.create) { (sitesKnownPathSmall(), sitesKnownPathLarge()) }
                    blocks += [pair.0, pair.1]
                }
                for block in blocks { free(block) }
            }
            captured = SiteCapture.shared.stop()
        } catch {
            _ = SiteCapture.shared.stop()
            throw error
        }
        let mine = captured.counts.filter { $0.key.component == component }
        #expect(mine.count == 2)
        let stacks = SiteWriter.symbolizedStacks(Set(mine.keys.map(\.stackID)))
        var bySite: [String: SiteCounts] = [:]
        for (key, counts) in mine {
            let stack = try #require(stacks[key.stackID])
            bySite[stack.site.function, default: SiteCounts()].add(counts)
        }
        let small = try #require(bySite.first { $0.key.hasPrefix("ProfilerTests.sitesKnownPathSmall()") })
        let large = try #require(bySite.first { $0.key.hasPrefix("ProfilerTests.sitesKnownPathLarge()") })
        #expect(bySite.count == 2, "\(bySite.keys)")
        #expect(small.value.allocations == 3 && small.value.requestedBytes == 600 && small.value.liveRequestedBytes == 600)
        #expect(large.value.allocations == 3 && large.value.requestedBytes == 9000 && large.value.liveRequestedBytes == 9000)
        #expect(small.value.frees == 0 && large.value.frees == 0)
        // Not `captured.dropped == 0`: capture is process-wide, and other suites running at the
        // same time allocate in regions on threads capture never prepared (dropped, as it
        // should). That none of this component's blocks was dropped, the exact counts above say.
    }

    @Test("the release of an instance is charged to the sites that allocated what it freed")
    func releaseCredited() throws {
        let component = "released-\(UUID().uuidString)"
        try SiteCapture.shared.start(depth: 8)
        let captured: CapturedSites
        let events: [Event]
        do {
            let sink = CollectingSink()
            try onOwnThread {
                let probe = Probe(sink: sink, component: component, strategy: "plain")
                let block = try probe.measure(.create) { sitesKnownPathLarge() }
                try probe.measure(.release) { free(block) }
            }
            captured = SiteCapture.shared.stop()
            events = sink.events
        } catch {
            _ = SiteCapture.shared.stop()
            throw error
        }
        let mine = captured.counts.filter { $0.key.component == component }
        let create = mine.filter { $0.key.kind == .create }.values.reduce(0) { $0 + $1.liveRequestedBytes }
        let release = mine.filter { $0.key.kind == .release }.values.reduce(0) { $0 + $1.liveRequestedBytes }
        #expect(create == 3000)
        #expect(release == -3000)
        #expect(events.map(\.netLiveBytes) == [3000, -3000])
    }

    @Test("a depth outside 1...128 is refused")
    func badDepth() {
        #expect(throws: SiteError.badDepth(0)) { try SiteCapture.shared.start(depth: 0) }
        #expect(throws: SiteError.badDepth(129)) { try SiteCapture.shared.start(depth: 129) }
        #expect(!SiteCapture.isCapturing)
    }
}
