#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ProfilerTesting
import CAllocationHooks

/// A sink the measured code stores into, so that the optimizer keeps every allocation.
nonisolated(unsafe) private var sink: [AnyObject] = []

/// Objects of a class of the tests' own, with a known count per workload.
final class Widget {
    var payload = [Int](repeating: 7, count: 4)
}

/// Messages an issue matcher saw (it may run on any thread).
final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ message: String) { lock.withLock { list.append(message) } }
    var messages: [String] { lock.withLock { list } }
}

/// What a failing limit says beyond its figure: the sites that allocated the test's bytes,
/// named by function and file:line, and the types of its objects; and the object and retain
/// limits, counted per task like the byte limits.
@Suite struct LimitDetailTests {
    /// A function of the test target with a name the failure message must show.
    @inline(never) static func allocatesFourKilobytesOnPurpose() -> UnsafeMutableRawPointer? {
        let p = malloc(4_096)
        if let p { memset(p, 1, 4_096) }
        return p
    }

    /// The issues a limit records while `body` runs, as their messages.
    static func messages(_ limits: MemoryLimits, _ body: @escaping @Sendable () async throws -> Void) async throws -> [String] {
        let recorded = Recorded()
        try await withKnownIssue {
            try await checkLimits(limits, what: "probe", sourceLocation: #_sourceLocation, body)
        } matching: { issue in
            recorded.add(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        return recorded.messages
    }

    @Test func aFailingLimitNamesTheFunctionThatAllocated() async throws {
        let messages = try await Self.messages(MemoryLimits(bytes: 1_024)) {
            free(Self.allocatesFourKilobytesOnPurpose())
        }
        let message = try #require(messages.first)
        #expect(message.contains("bytes allocated:"), "\(message)")
        #expect(message.contains("top sites (by bytes allocated):"), "\(message)")
        // The largest site is the function's 4096 B, with its file and line.
        let top = message.components(separatedBy: "\n").first { $0.contains("allocatesFourKilobytesOnPurpose") }
        #expect(top?.contains("4096 B in 1 allocations, 0 B still live") == true, "\(message)")
        #expect(top?.contains("LimitDetailTests.swift:") == true, "\(message)")
        // What a meter does not see, a dispatch queue's work included (TaskMeterTests).
        #expect(message.contains("not detached tasks, dispatch queues or threads it hands work to"), "\(message)")
    }

    @inline(never) static func returnsAtOnce() async -> Int { 4_096 }

    /// The same allocation after an await: it runs in a part of the async function
    /// ("(1) suspend resume partial function for ..."), named by the function (SiteFrame's rule).
    @inline(never) static func allocatesAfterAnAwait() async -> UnsafeMutableRawPointer? {
        let size = await returnsAtOnce()
        let p = malloc(size)
        if let p { memset(p, 1, size) }
        return p
    }

    @Test func aSiteInAnAsyncFunctionsPartIsNamedByTheFunction() async throws {
        let messages = try await Self.messages(MemoryLimits(bytes: 1_024)) {
            free(await Self.allocatesAfterAnAwait())
        }
        let message = try #require(messages.first)
        let top = message.components(separatedBy: "\n").first { $0.contains("4096 B in 1 allocations") }
        #expect(top?.contains(": ProfilerTestingTests.LimitDetailTests.allocatesAfterAnAwait (LimitDetailTests.swift:") == true,
                "\(message)")
        #expect(!message.contains("partial function"), "\(message)")
    }

    @Test func aLeakRanksSitesByWhatIsStillLive() async throws {
        nonisolated(unsafe) var kept: UnsafeMutableRawPointer?
        let messages = try await Self.messages(MemoryLimits(retainedBytes: 0)) {
            kept = Self.allocatesFourKilobytesOnPurpose()
        }
        free(kept)
        let message = try #require(messages.first)
        #expect(message.contains("top sites (by bytes still live):"), "\(message)")
        let first = message.components(separatedBy: "\n").first { $0.hasPrefix("    ") }
        #expect(first?.contains("4096 B still live: ") == true && first?.contains("allocatesFourKilobytesOnPurpose") == true,
                "\(message)")
    }

    @Test func objectsOfAClassAreCountedAndTheirLimitFails() async throws {
        nonisolated(unsafe) var kept: [Widget] = []
        let messages = try await Self.messages(MemoryLimits(objects: [ObjectLimit(Widget.self, count: 3)])) {
            let widgets = (0..<5).map { _ in Widget() }
            kept = Array(widgets.prefix(2))
        }
        kept.removeAll()
        let message = try #require(messages.first)
        #expect(message.contains("objects of ProfilerTestingTests.Widget: 5, limit 3 (2 over)"), "\(message)")
        #expect(message.contains("top types (by bytes allocated):"), "\(message)")
        #expect(message.contains("5 objects, "), "\(message)")
        #expect(message.contains("2 still live: ProfilerTestingTests.Widget"), "\(message)")
    }

    /// A test's types are the rows a window's are (`ObjectTypeCounts`): each type's live bytes
    /// are counted as its live objects are, an object freed before the meter closed leaving both.
    @Test(.enabled(if: MeterCapture.typesAvailable, "the hooks do not know this Swift runtime"))
    func aTestsTypesCountTheirLiveBytes() throws {
        let (kept, measured, _) = try TaskMeter.measureOrReport(capturing: [.types], { () -> [Widget] in
            let freed = (0..<2).map { _ in Widget() }
            withExtendedLifetime(freed) {}
            return (0..<3).map { _ in Widget() }
        }, unmeasurable: { Issue.record("\($0)") })
        defer { withExtendedLifetime(kept) {} }
        let figures = try #require(measured)
        let row = try #require(figures.objectTypes.first { $0.name == String(reflecting: Widget.self) }, "\(figures.objectTypes)")
        #expect(row.objects == 5 && row.liveObjects == 3, "\(row)")
        #expect(row.liveBytes > 0 && row.liveBytes * 5 == row.bytes * 3, "\(row)")
    }

    /// A byte limit, not an object limit, and its failure still names the test's types: the
    /// top ones, then the blocks no object claims, adding up to the test's allocations and bytes.
    @Test func everyLimitsFailureNamesTheTypesOfTheTestsObjects() async throws {
        let messages = try await Self.messages(MemoryLimits(bytes: 64)) {
            let widgets = (0..<3).map { _ in Widget() }
            sink.append(widgets as AnyObject)
            sink.removeAll()
            free(Self.allocatesFourKilobytesOnPurpose())
        }
        let message = try #require(messages.first)
        let lines = message.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "  top types (by bytes allocated):"), "\(message)")
        let typeLines = lines[(start + 1)...].prefix { $0.hasPrefix("    ") }
        #expect(typeLines.contains { $0.hasPrefix("    3 objects, ") && $0.hasSuffix("still live: ProfilerTestingTests.Widget") },
                "\(message)")
        // Last, what no object claims: the 4 KB buffer among them (and the task's own slab).
        let remainder = try #require(typeLines.last, "\(message)").split(separator: " ")
        #expect(remainder.joined(separator: " ").hasSuffix("still live: (not a Swift object)") && remainder[1] == "blocks,"
                && (Int(remainder[2]) ?? 0) >= 4_096, "\(message)")
        // The lines add up to the measured figures: "N objects, B B, ..." (or blocks) each.
        let counted = typeLines.map { line -> (Int, Int) in
            let words = line.split(separator: " ")
            return (Int(words[0]) ?? -1, Int(words[2]) ?? -1)
        }
        let measured = try #require(lines.first { $0.hasPrefix("  measured: ") }).split(separator: " ")
        #expect(counted.reduce(0) { $0 + $1.0 } == Int(measured[1]), "\(message)")
        #expect(counted.reduce(0) { $0 + $1.1 } == Int(measured[3]), "\(message)")
    }

    /// Objects freed on a thread the test started are not live, immortal objects (the empty
    /// array) and small strings name nothing, and nothing crashes.
    @Test func objectsFreedOnAnotherThreadAreNotLive() async throws {
        let messages = try await Self.messages(MemoryLimits(allocations: 1)) {
            let box = WidgetBox((0..<4).map { _ in Widget() })
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                box.drop()
                done.signal()
            }
            thread.start()
            done.wait()
            let empty: [Int] = [], small = "short"
            sink.append((empty, small) as AnyObject)
            sink.removeAll()
        }
        let message = try #require(messages.first)
        #expect(message.contains("    4 objects, ") && message.contains(" 0 still live: ProfilerTestingTests.Widget"), "\(message)")
    }

    @Test func withinItsObjectLimitATestPasses() async throws {
        try await checkLimits(MemoryLimits(objects: [ObjectLimit(Widget.self, count: 5)]), what: "probe",
                              sourceLocation: #_sourceLocation) {
            for _ in 0..<5 { sink.append(Widget()) }
            sink.removeAll()
        }
    }

    /// Retains of one object, counted per task: the same figure for the same work every time,
    /// and a limit under it fails naming retains, with what they count and what not.
    @Test func retainsAreCountedAndTheirLimitSaysWhatItCounts() async throws {
        let messages = try await Self.messages(MemoryLimits(retains: 10)) {
            let w = Widget()
            let copies = [Widget](repeating: w, count: 100)
            sink.append(copies as AnyObject)
            sink.removeAll()
        }
        let message = try #require(messages.first)
        #expect(message.contains("retains: "), "\(message)")
        #expect(message.contains("retains are counted as they happen"), "\(message)")
    }
}

/// What a limit reads from its meter to name sites and types allocates, in the caller's task:
/// for a block inside a measured test, that must not be the test's.
@Suite struct NestedLimitTests {
    @Test func aPassingBlockAddsOnlyItsOwnBytesToTheTestAroundIt() throws {
        // First-use costs out: run first in the process, the block's path instantiates the
        // runtime metadata of its arrays (80 B, kept for good; docs/testing.md, "Exactness").
        try expectAllocations(bytes: 10_000) { free(TaskMeterTests.block(2_000)) }
        let (_, outer) = try TaskMeter.measure {
            free(TaskMeterTests.block(100))
            try expectAllocations(bytes: 10_000, allocations: 10) { free(TaskMeterTests.block(2_000)) }
        }
        #expect(outer.bytes == 2_100, "\(outer)")
        #expect(outer.allocations == 2, "\(outer)")
    }
}

/// Widgets another thread drops.
final class WidgetBox: @unchecked Sendable {
    private let lock = NSLock()
    private var widgets: [Widget]?
    init(_ widgets: [Widget]) { self.widgets = widgets }
    func drop() { lock.withLock { widgets = nil } }
}

/// A class per depth: `Layer<Layer<...<Widget>>>`, each its own metadata, so that a test
/// can make objects of more classes than a meter names.
final class Layer<Inner> {}

func makeLayers<Inner>(_: Inner.Type, _ remaining: Int, into sink: inout [AnyObject]) {
    sink.append(Layer<Inner>())
    if remaining > 1 { makeLayers(Layer<Inner>.self, remaining - 1, into: &sink) }
}

@Suite struct ObjectLimitOverflowTests {
    /// A meter names at most PROFCTL_METER_MAX_TYPES - 1 classes and sums the rest: a limited
    /// class among those summed cannot be counted, and its limit must fail, not pass with 0.
    @Test func aClassTheMeterHadNoRoomForFailsItsLimitSayingWhy() async throws {
        let classes = Int(PROFCTL_METER_MAX_TYPES) + 8
        let messages = try await LimitDetailTests.messages(MemoryLimits(objects: [ObjectLimit(Widget.self, count: 1_000)])) {
            var made: [AnyObject] = []
            makeLayers(Int.self, classes, into: &made)
            made.append(Widget())
            withExtendedLifetime(made) {}
        }
        let message = try #require(messages.first, "a limit on a class the meter summed passed")
        #expect(message.contains("objects of ProfilerTestingTests.Widget: not counted apart, limit 1000 (the test made objects of more than 126 classes"), "\(message)")
    }

    @Test func aClassNamedBesideAnOverflowIsStillCounted() {
        var figures = AllocationFigures()
        let limit = ObjectLimit(Widget.self, count: 2)
        figures.objectsByClass = [UInt(bitPattern: ObjectIdentifier(Widget.self)): 3, 0: 40]
        #expect(MemoryLimits(objects: [limit]).violations(of: figures) == ["objects of ProfilerTestingTests.Widget: 3, limit 2 (1 over)"])
        figures.objectsByClass = [:]
        #expect(MemoryLimits(objects: [limit]).violations(of: figures).isEmpty, "no objects at all: 0, within the limit")
    }
}
