/// One strategy's allocations in one log2 size class of a run (the size_classes view,
/// components summed): class c holds requested sizes 2^c to 2^(c+1) - 1.
public struct SizeClassPoint: Sendable, Equatable {
    public let strategy: String
    public let sizeClass: Int
    public let allocations: Int
    public let requestedBytes: Int
    public let usableBytes: Int

    package init(strategy: String, sizeClass: Int, allocations: Int, requestedBytes: Int, usableBytes: Int) {
        self.strategy = strategy
        self.sizeClass = sizeClass
        self.allocations = allocations
        self.requestedBytes = requestedBytes
        self.usableBytes = usableBytes
    }

    /// What malloc's rounding added in this class.
    public var wastedBytes: Int { usableBytes - requestedBytes }
}
