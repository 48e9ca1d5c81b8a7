/// What one call stack did in the measured instances of one (component, strategy, kind).
public struct SiteCounts: Sendable, Equatable {
    public var allocations = 0
    public var frees = 0
    public var requestedBytes = 0
    public var usableBytes = 0
    /// Bytes of its blocks still live when their instance's measurement ended, less the
    /// bytes of its older blocks (allocated before the instance's measurement) freed in it.
    public var liveRequestedBytes = 0
    public var liveUsableBytes = 0

    public init() {}

    package mutating func add(_ other: SiteCounts) {
        allocations += other.allocations
        frees += other.frees
        requestedBytes += other.requestedBytes
        usableBytes += other.usableBytes
        liveRequestedBytes += other.liveRequestedBytes
        liveUsableBytes += other.liveUsableBytes
    }
}
