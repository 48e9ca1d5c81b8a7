import Testing
@testable import ProfilerModel

@Suite("Radix sort")
struct RadixSortTests {
    @Test("sorts as the standard library does: wide and narrow values, duplicates, negatives, empty and one")
    func sameAsStandardSort() {
        var random = SystemRandomNumberGenerator()
        let inputs: [[Int]] = [
            [], [7], [3, 1, 2], [5, 5, 0, 5],
            (0..<10_000).map { _ in Int.random(in: 0...2047, using: &random) },
            (0..<10_000).map { _ in Int.random(in: 0...Int.max, using: &random) },
            (0..<1_000).map { _ in Int.random(in: -1_000...1_000, using: &random) },
        ]
        for input in inputs {
            var sorted = input
            RadixSort.sort(&sorted)
            #expect(sorted == input.sorted())
        }
    }
}
