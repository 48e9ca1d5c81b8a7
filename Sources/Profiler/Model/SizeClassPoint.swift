/// One strategy's allocations in one log2 size class of a run (the size_classes view,
/// components summed): class c holds requested sizes 2^c to 2^(c+1) - 1.
package struct SizeClassPoint: Sendable, Equatable {
    package let strategy: String
    package let sizeClass: Int
    package let allocations: Int
    package let requestedBytes: Int
    package let usableBytes: Int

    package init(strategy: String, sizeClass: Int, allocations: Int, requestedBytes: Int, usableBytes: Int) {
        self.strategy = strategy
        self.sizeClass = sizeClass
        self.allocations = allocations
        self.requestedBytes = requestedBytes
        self.usableBytes = usableBytes
    }

    /// What malloc's rounding added in this class.
    package var wastedBytes: Int { usableBytes - requestedBytes }
}
