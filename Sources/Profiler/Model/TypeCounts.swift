/// What one type's objects did in the measured instances of one (component, strategy,
/// kind): how many were allocated, their requested bytes, and how many of them (and their
/// bytes) were still allocated when their instance's measurement ended; and how many
/// objects of the type, built by an earlier event, these instances gave back (freed).
package struct TypeCounts: Sendable, Equatable {
    package var objects = 0
    package var requestedBytes = 0
    package var liveObjects = 0
    package var liveRequestedBytes = 0
    /// Objects of the type allocated in an earlier measured region and freed in these
    /// instances' (a release event's screen), and their bytes: with the live ones, what
    /// stays of a type over a round trip is `liveObjects - releasedObjects`.
    package var releasedObjects = 0
    package var releasedRequestedBytes = 0

    package init(objects: Int = 0, requestedBytes: Int = 0, liveObjects: Int = 0, liveRequestedBytes: Int = 0,
                 releasedObjects: Int = 0, releasedRequestedBytes: Int = 0) {
        self.objects = objects
        self.requestedBytes = requestedBytes
        self.liveObjects = liveObjects
        self.liveRequestedBytes = liveRequestedBytes
        self.releasedObjects = releasedObjects
        self.releasedRequestedBytes = releasedRequestedBytes
    }

    package mutating func add(_ other: TypeCounts) {
        objects += other.objects
        requestedBytes += other.requestedBytes
        liveObjects += other.liveObjects
        liveRequestedBytes += other.liveRequestedBytes
        releasedObjects += other.releasedObjects
        releasedRequestedBytes += other.releasedRequestedBytes
    }

    package mutating func subtract(_ other: TypeCounts) {
        objects -= other.objects
        requestedBytes -= other.requestedBytes
        liveObjects -= other.liveObjects
        liveRequestedBytes -= other.liveRequestedBytes
        releasedObjects -= other.releasedObjects
        releasedRequestedBytes -= other.releasedRequestedBytes
    }
}
