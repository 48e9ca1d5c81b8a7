#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ProfilerTesting

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

    @Test func withinItsObjectLimitATestPasses() async throws {
        await TaskMeter.warmUp()
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
