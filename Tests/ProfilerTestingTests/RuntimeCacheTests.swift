#if canImport(Glibc)
import Glibc
#endif
import CAllocationHooks
import Dispatch
import Testing
@testable import ProfilerTesting

/// What the runtimes keep for the process is left out of a test's figures, counted apart
/// (runtime_caches.c; docs/testing.md, "Exactness"): the first use of a type, a conformance or
/// a lazy global costs the first test that needs it and none after, so a figure that held it
/// would depend on the order tests run in. Each test uses types no other test uses, so that
/// its first measurement is the process's first use.
@Suite struct RuntimeCacheTests {
    struct ShelfKey: Hashable { var aisle: Int }
    struct Shelf<Item> { var items: [Item] }
    enum Catalogue { static let entries: [String] = (0..<64).map { "entry \($0)" } }
    /// A lazy global built far down its initializer's stack, as a decoded configuration is
    /// (JSONDecoder's allocations are 40 to 60 frames under swift_once in a debug build).
    enum Settings { static let table: [[Int]] = nested(48) }
    static func nested(_ depth: Int) -> [[Int]] { depth == 0 ? [[1, 2, 3]] : nested(depth - 1) }
    final class Bin: Sendable { let slots = [Int](repeating: 0, count: 4) }
    enum Store { static let bins: [Bin] = (0..<8).map { _ in Bin() } }

    /// allocations, bytes, retained: the figures a limit reads.
    static func figures(_ f: AllocationFigures) -> [UInt64] { [f.allocations, f.bytes, f.retainedBytes, f.retainedBlocks] }

    @Test func aGenericTypesFirstUseIsTheRuntimesNotTheTests() throws {
        func stock() -> Int {
            var shelves: [ShelfKey: Shelf<ShelfKey>] = [:]
            shelves[ShelfKey(aisle: 1)] = Shelf(items: [ShelfKey(aisle: 2)])
            return shelves.count
        }
        let (_, first) = try TaskMeter.measure { stock() }
        let (_, second) = try TaskMeter.measure { stock() }
        #expect(profctl_meter_runtime_cache_functions() > 0)
        #expect(first.runtimeCacheBlocks > 0, "the metadata of Shelf<ShelfKey> and its dictionary: \(first)")
        #expect(second.runtimeCacheBlocks == 0)
        #expect(Self.figures(first) == Self.figures(second), "first \(first), second \(second)")
        #expect(first.allocations > 0 && first.retainedBytes == 0)
    }

    @Test func aLazyGlobalsFirstUseIsTheRuntimesNotTheTests() throws {
        let (count, first) = try TaskMeter.measure { Catalogue.entries.count }
        #expect(count == 64)
        #expect(first.runtimeCacheBlocks >= 64, "the array and its 64 strings, made under swift_once: \(first)")
        #expect(first.allocations == 0 && first.retainedBytes == 0, "\(first)")
    }

    /// A lazy global is the runtime's however deep under swift_once its initializer allocates:
    /// a walk of 32 frames missed swift_once under a decoded configuration, and charged its
    /// blocks, kept for good, to whichever test touched it first (a `.noLeaks` test failed).
    @Test func aLazyGlobalBuiltDeepInItsInitializerIsTheRuntimes() throws {
        let (count, first) = try TaskMeter.measure { Settings.table.count }
        #expect(count == 1)
        #expect(first.runtimeCacheBlocks >= 2, "the table and its array, made under swift_once: \(first)")
        #expect(first.allocations == 0 && first.retainedBytes == 0, "\(first)")
    }

    /// Objects a lazy global's initializer makes are the runtime's too: not in the objects and
    /// types a limit counts (an object limit and a failure's types agree with the bytes).
    @Test func aLazyGlobalsObjectsAreNotTheTests() throws {
        let (count, f, _) = try TaskMeter.measureOrReport(capturing: [.types], { Store.bins.count },
                                                      unmeasurable: { Issue.record("\($0)") })
        #expect(count == 8)
        let figures = try #require(f)
        #expect(figures.runtimeCacheBlocks >= 16, "8 bins and their arrays, made under swift_once: \(figures)")
        #expect(figures.objects == 0 && figures.objectTypes.isEmpty, "\(figures.objectTypes)")
    }

    /// The rule leaves the test's own blocks alone: an array, an object, a malloc, each counted.
    @Test func theTestsOwnAllocationsAreCounted() throws {
        final class Ledger { var lines = [Int](repeating: 7, count: 16) }
        let (_, f) = try TaskMeter.measure { () -> Int in
            let ledger = Ledger()
            let p = malloc(100)
            defer { free(p) }
            return ledger.lines.count + [Int](repeating: 1, count: 32).count
        }
        _ = try TaskMeter.measure { Ledger().lines.count } // the class's metadata out of the way
        let (_, again) = try TaskMeter.measure { () -> Int in
            let ledger = Ledger()
            let p = malloc(100)
            defer { free(p) }
            return ledger.lines.count + [Int](repeating: 1, count: 32).count
        }
        #expect(again.allocations == 4 && again.runtimeCacheBlocks == 0, "\(again)")
        #expect(Self.figures(f) == Self.figures(again), "first \(f), again \(again)")
    }

    /// The walk remembers, per thread, the runtime's return addresses it found in none of the
    /// cache functions (runtime_caches.c, `outside`), so that swift_allocObject's and
    /// swift_slowAlloc's frames are searched once, not at every allocation: a lazy global's
    /// first use right after a hundred objects made through those frames is still the
    /// runtime's, every one of its blocks (swift_once is the only cache function on their
    /// stacks, so one address remembered wrongly would count the rest).
    @Test func aFirstUseAfterManyObjectsIsStillTheRuntimes() throws {
        final class Token { var count = 1 }
        enum Register { static let lines: [String] = (0..<32).map { "line \($0)" } }
        func read() -> Int {
            var tokens = 0
            for _ in 0..<100 { tokens += Token().count }
            return tokens + Register.lines.count
        }
        let (_, first) = try TaskMeter.measure { read() }
        let (_, second) = try TaskMeter.measure { read() }
        #expect(first.runtimeCacheBlocks >= 32, "the array and its 32 strings, made under swift_once: \(first)")
        #expect(second.runtimeCacheBlocks == 0)
        #expect(Self.figures(first) == Self.figures(second), "first \(first), second \(second)")
        #expect(first.allocations >= 100, "the tokens are the test's: \(first)")
    }

    /// dispatch takes an enqueue's continuation from its thread's cache, or from the heap when
    /// the cache is empty: which of the two depends on what ran on the thread before, so those
    /// blocks are left out, and the figures repeat however many came from the heap. A thread's
    /// cache holds at most 1,024 (libdispatch's DISPATCH_CONTINUATION_CACHE_LIMIT), so 1,200
    /// enqueues take some from the heap whatever ran on this thread before (200 did not, in
    /// the whole suite's run).
    @Test func dispatchContinuationsAreTheRuntimes() throws {
        @Sendable func enqueue() {
            let group = DispatchGroup()
            for _ in 0..<1_200 { DispatchQueue.global().async(group: group) { } }
            group.wait()
        }
        let (_, first) = try TaskMeter.measure { enqueue() }
        let (_, second) = try TaskMeter.measure { enqueue() }
        #expect(first.runtimeCacheBlocks >= 176 && second.runtimeCacheBlocks >= 176, "first \(first), second \(second)")
        // Allocations and bytes: dispatch releases a block after it has left the group, so
        // group.wait() may return while the last block's closure is still live, and it then
        // counts as kept in that run (docs/testing.md, "Exactness").
        #expect([first.allocations, first.bytes] == [second.allocations, second.bytes], "first \(first), second \(second)")
    }
}
