import Foundation
import Testing

/// Types against heaptrack on the same run (docs/hooks.md, "Types"): hook-witness json-types
/// decodes a fixed JSON document with JSONDecoder in a measured region, types captured,
/// between two marker allocations, with the hooks chained to heaptrack's malloc
/// (PROFCTL_HOOKS_CHAIN=1). The objects attributed to types must number exactly the
/// allocations heaptrack saw made through swift_allocObject between the markers.
@Suite("Types against heaptrack", .serialized)
struct TypesWitnessTests {
    @Test("a JSONDecoder decode's typed objects equal heaptrack's swift_allocObject allocations",
          .enabled(if: HeaptrackRun.installed, HeaptrackRun.missingMessage))
    func jsonDecodeEqualsHeaptrack() throws {
        let folder = try TemporaryFolder()
        let (printed, traced) = try HeaptrackRun.trace(HeaptrackRun.built("hook-witness"), ["json-types"], in: folder.url)
        let summary = printed.split(separator: "\n").first { $0.hasPrefix("objects ") }?.split(separator: " ")
        let objects = summary.flatMap { $0.count == 4 ? Int($0[1]) : nil }, remainder = summary.flatMap { $0.count == 4 ? Int($0[3]) : nil }
        let typed = try #require(objects, "hook-witness printed \(printed)"), rest = try #require(remainder)
        #expect(typed == traced.throughAllocObject, "objects: types \(typed), heaptrack through swift_allocObject \(traced.throughAllocObject)")
        // The remainder is the two markers, which lie inside the region and outside heaptrack's stretch.
        #expect(rest == 2 && typed == traced.allocations, "blocks: types \(typed) + remainder \(rest), heaptrack \(traced.allocations)")
        #expect(typed > 100, "the decode allocated next to nothing: \(printed)")
    }

    /// The same decode on another thread, in a window capturing types (hook-witness
    /// json-window-types): the window's typed objects are heaptrack's swift_allocObject
    /// allocations between the markers, and its remainder the rest of them.
    @Test("a JSONDecoder decode's typed objects in a window equal heaptrack's swift_allocObject allocations",
          .enabled(if: HeaptrackRun.installed, HeaptrackRun.missingMessage))
    func jsonDecodeInAWindowEqualsHeaptrack() throws {
        let folder = try TemporaryFolder()
        let (printed, traced) = try HeaptrackRun.trace(HeaptrackRun.built("hook-witness"), ["json-window-types"], in: folder.url)
        let summary = printed.split(separator: "\n").first { $0.hasPrefix("objects ") }?.split(separator: " ")
        let objects = summary.flatMap { $0.count == 4 ? Int($0[1]) : nil }, remainder = summary.flatMap { $0.count == 4 ? Int($0[3]) : nil }
        let typed = try #require(objects, "hook-witness printed \(printed)"), rest = try #require(remainder)
        #expect(typed == traced.throughAllocObject, "objects: types \(typed), heaptrack through swift_allocObject \(traced.throughAllocObject)")
        // The remainder is the two markers (inside the window, outside heaptrack's stretch) and
        // the blocks between them that are no object (the dispatch to the other thread's).
        #expect(typed + rest - 2 == traced.allocations, "blocks: types \(typed) + remainder \(rest), heaptrack \(traced.allocations)")
        #expect(typed > 100, "the decode allocated next to nothing: \(printed)")
    }
}
