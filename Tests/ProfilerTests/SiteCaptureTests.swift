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

// An async function allocating after an await: the allocation runs in the part of it after
// the suspension point, which the demangler names "(1) await resume partial function for
// ProfilerTests.sitesAsyncAllocation() async -> ...".
@inline(never)
func sitesAsyncNothing() async -> Int { keep(24) }

@inline(never)
func sitesAsyncAllocation() async -> UnsafeMutableRawPointer? {
    let extra = await sitesAsyncNothing()
    return keep(malloc(1000 + extra))
}

/// What a task hands back to the thread that started it.
private final class BlockBox: @unchecked Sendable {
    var pointer: UnsafeMutableRawPointer?
}

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

    @Test("an async function's allocation after an await is named by the function: in the stored sites, their tree and pprof")
    func asyncFunctionsPart() throws {
        let temp = try TemporaryDatabase()
        let component = "async-part-\(UUID().uuidString)"
        let recorder = try Recorder.start(database: temp.path, run: RunDescription(
            scenario: "async-part", baselineStrategy: "plain", parameters: ["x": .int(1)]))
        try SiteCapture.shared.start(depth: SiteCapture.defaultDepth)
        let captured: CapturedSites
        do {
            try onOwnThread {
                let probe = Probe(sink: recorder, component: component, strategy: "plain")
                let block = BlockBox()
                // Once unmeasured first: the part's first run instantiates a type's metadata
                // (a block of the runtime's, in the same part), later runs find it cached.
                Task.immediate { block.pointer = await sitesAsyncAllocation() }
                free(block.pointer)
                try probe.measure(.create) {
                    // Runs the task on this thread, inside the region, until it suspends (it
                    // never does: the awaited function returns at once).
                    Task.immediate { block.pointer = await sitesAsyncAllocation() }
                }
                free(block.pointer)
            }
            captured = SiteCapture.shared.stop()
        } catch {
            _ = SiteCapture.shared.stop()
            throw error
        }
        try recorder.finish()
        try SiteWriter.write(captured, runID: recorder.runID, database: temp.path)
        let sites = try SiteQuery.sites(runID: recorder.runID, in: try ProfileStore.openForReading(path: temp.path))
        let mine = sites.rows.filter { $0.component == component }
        let stacks = mine.map { row in (sites.stacks[row.stackID]?.frames ?? []).map(\.function).joined(separator: " <- ") }
        // Named by the function, not by the runtime or the test's closure that started the task.
        let named = mine.filter { $0.site.hasPrefix("ProfilerTests.sitesAsyncAllocation() async") }
        #expect(named.count == 1 && named.first?.counts.allocations == 1 && named.first?.counts.requestedBytes == 1024,
                "\(mine.map(\.site))\n\(stacks.joined(separator: "\n"))")
        #expect(!mine.contains { $0.site.contains("partial function for") }, "\(mine.map(\.site))")
        let tree = SiteQuery.tree(mine, stacks: sites.stacks)
        #expect(tree.contains("ProfilerTests.sitesAsyncAllocation() async") && !tree.contains("partial function for"), "\(tree)")
        // pprof's gzip holds stored blocks: its strings are there as they are.
        let pprof = String(decoding: Pprof.export([sites]), as: UTF8.self)
        #expect(pprof.contains("ProfilerTests.sitesAsyncAllocation() async") && !pprof.contains("resume partial function for"))
    }

    @Test("an async function's part is judged and named by the function it is part of; other names in parentheses are not parts")
    func asyncPartsByWholeFunction() {
        let module = "/work/app/.build/debug/app"
        let part = SiteFrame(module: module, function: "(2) await resume partial function for closure #1 () async -> () in App.load() async -> ()",
                             file: "/work/app/Sources/App/Load.swift", line: 12)
        #expect(part.isUserCode && part.wholeFunction == "closure #1 () async -> () in App.load() async -> ()")
        #expect(part.byWholeFunction == SiteFrame(module: module, function: part.wholeFunction, file: part.file, line: 12))
        // A part of the standard library's own async code, compiled into the user's module, is still the library's.
        #expect(!SiteFrame(module: module, function: "(1) suspend resume partial function for Swift.withTaskGroup<A>() async -> A").isUserCode)
        for name in ["(extension in App):App.Loader.load() -> ()", "(1) partial function", "(x) await resume partial function for App.f()"] {
            #expect(SiteFrame(module: module, function: name).wholeFunction == name)
        }
        let stack = SiteStack(frames: [SiteFrame(module: "/usr/lib/swift/linux/libswiftCore.so", function: "swift_slowAlloc"), part])
        #expect(stack.site == part.byWholeFunction)
    }

    @Test("a depth outside 1...128 is refused")
    func badDepth() {
        #expect(throws: SiteError.badDepth(0)) { try SiteCapture.shared.start(depth: 0) }
        #expect(throws: SiteError.badDepth(129)) { try SiteCapture.shared.start(depth: 129) }
        #expect(!SiteCapture.isCapturing)
    }
}
