/// What one call stack did in the measured instances of one (component, strategy, kind).
package struct SiteCounts: Sendable, Equatable {
    package var allocations = 0
    package var frees = 0
    package var requestedBytes = 0
    package var usableBytes = 0
    /// Bytes of its blocks still live when their instance's measurement ended, less the
    /// bytes of its older blocks (allocated before the instance's measurement) freed in it.
    package var liveRequestedBytes = 0
    package var liveUsableBytes = 0

    package init() {}

    package mutating func add(_ other: SiteCounts) {
        allocations += other.allocations
        frees += other.frees
        requestedBytes += other.requestedBytes
        usableBytes += other.usableBytes
        liveRequestedBytes += other.liveRequestedBytes
        liveUsableBytes += other.liveUsableBytes
    }
}
