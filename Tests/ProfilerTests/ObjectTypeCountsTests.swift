import Testing
import ProfilerModel

/// The remainder row a window's types end with and a failing test limit's message names:
/// computed in one place, so both say the same of the same figures.
@Suite struct ObjectTypeCountsTests {
    static let types = [
        ObjectTypeCounts(name: "App.Order", objects: 3, bytes: 96, liveObjects: 2, liveBytes: 64),
        ObjectTypeCounts(name: "(closure context or box)", objects: 1, bytes: 32, liveObjects: 0, liveBytes: 0),
    ]

    @Test func theRemainderIsTheFiguresLessTheObjects() throws {
        let remainder = try #require(ObjectTypeCounts.remainder(after: Self.types, allocations: 10, bytes: 1_000,
                                                                liveBlocks: 5, liveBytes: 300))
        #expect(remainder == ObjectTypeCounts(name: "(not a Swift object)", objects: 6, bytes: 872, liveObjects: 3, liveBytes: 236))
        #expect(remainder.isRemainder && !Self.types.contains(where: \.isRemainder))
        // With it, the rows add up to the figures.
        let rows = Self.types + [remainder]
        #expect(rows.reduce(0) { $0 + $1.objects } == 10 && rows.reduce(0) { $0 + $1.bytes } == 1_000)
    }

    @Test func noRemainderWhenTheObjectsAreEveryBlock() {
        #expect(ObjectTypeCounts.remainder(after: Self.types, allocations: 4, bytes: 128, liveBlocks: 2, liveBytes: 64) == nil)
        #expect(ObjectTypeCounts.remainder(after: [], allocations: 0, bytes: 0, liveBlocks: 0, liveBytes: 0) == nil)
    }

    /// A task meter counts an object whose block it could not keep as live for good, so its
    /// objects may claim more live blocks than its figures: never a negative remainder.
    @Test func aRemainderIsNeverBelowZero() throws {
        let remainder = try #require(ObjectTypeCounts.remainder(after: Self.types, allocations: 6, bytes: 200,
                                                                liveBlocks: 1, liveBytes: 10))
        #expect(remainder.objects == 2 && remainder.bytes == 72 && remainder.liveObjects == 0 && remainder.liveBytes == 0)
    }
}
