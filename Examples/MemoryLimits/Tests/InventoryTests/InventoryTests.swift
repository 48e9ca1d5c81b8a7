import Inventory
import ProfilerTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Each limit sits a little above what its test measures in a debug build, where figures are
// larger than in release: there the child task a test runs in costs about 2 KB of them
// (docs/testing.md, "Exactness").
// A default for every test of the suite, which a test may raise, lower or drop.
@Suite(.allocationLimit(bytes: 8_192))
struct InventoryTests {
    @Test(.allocationLimit(bytes: 4_096, allocations: 32))
    func addingAFewItems() {
        let inventory = Inventory()
        for sku in 1...3 { inventory.add(Item(sku: sku, count: 2)) }
        #expect(inventory.total == 6)
    }

    @Test(.noLeaks)
    func aScratchBufferIsFreed() {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1_024, alignment: 8)
        scratch.initializeMemory(as: UInt8.self, repeating: 0)
        scratch.deallocate()
    }

    @Test(.peakLimit(bytes: 36_000), .allocationLimit(bytes: 36_000))
    func peakOfABigTemporary() {
        // 32,000 bytes live at once, freed before the test ends.
        let buffer = [Int](repeating: 1, count: 4_000)
        #expect(buffer.count == 4_000 && buffer[3_999] == 1)
    }

    @Test(.noGrowth(rounds: 5))
    func aCacheFillsOnceAndThenStops() {
        let cache = Self.cache
        for sku in 1...10 { _ = cache.label(for: sku) }
    }
    static let cache = LabelCache()

    @Test(.objectLimit(Receipt.self, count: 1))
    func oneReceiptPerSale() {
        let receipt = Receipt(lines: [3, 4, 5])
        #expect(receipt.total == 12)
    }

    @Test(.retainLimit(count: 100))
    func totallingRetainsLittle() {
        let inventory = Inventory()
        for sku in 1...10 { inventory.add(Item(sku: sku, count: sku)) }
        #expect(inventory.total == 55)
    }

    @Test(.noMemoryLimits)
    func unlimited() {
        let big = [UInt8](repeating: 0, count: 1 << 20)
        #expect(big.count == 1 << 20)
    }

    @Test(.allocationLimit(bytes: 16_384))
    func async() async throws {
        let total = try await expectAllocations(bytes: 8_192) {
            async let a = Self.count(1...10)
            async let b = Self.count(11...20)
            return await a + b
        }
        #expect(total == 210)
    }
    static func count(_ r: ClosedRange<Int>) async -> Int { r.reduce(0, +) }
}

/// Deliberately over its limits: runs only when EXAMPLE_OVER_LIMIT is set, so that
/// scripts/test-example can check the failure message.
@Suite(.enabled(if: getenv("EXAMPLE_OVER_LIMIT") != nil))
struct OverLimit {
    @Test(.allocationLimit(bytes: 64))
    func aThousandItems() {
        let inventory = Inventory()
        for sku in 1...1_000 { inventory.add(Item(sku: sku, count: 1)) }
        #expect(inventory.total == 1_000)
    }

    @Test(.noGrowth(rounds: 3))
    func anAuditLogThatKeepsEverything() {
        for n in 1...5 { AuditLog.shared.record("event \(n)") }
    }

    @Test(.objectLimit(Receipt.self, count: 10))
    func aReceiptPerLine() {
        let receipts = (1...100).map { Receipt(lines: [$0]) }
        #expect(receipts.count == 100)
    }
}
