/// What one type's objects did in the measured instances of one (component, strategy,
/// kind): how many were allocated, their requested bytes, and how many of them (and their
/// bytes) were still allocated when their instance's measurement ended.
package struct TypeCounts: Sendable, Equatable {
    package var objects = 0
    package var requestedBytes = 0
    package var liveObjects = 0
    package var liveRequestedBytes = 0

    package init(objects: Int = 0, requestedBytes: Int = 0, liveObjects: Int = 0, liveRequestedBytes: Int = 0) {
        self.objects = objects
        self.requestedBytes = requestedBytes
        self.liveObjects = liveObjects
        self.liveRequestedBytes = liveRequestedBytes
    }

    package mutating func add(_ other: TypeCounts) {
        objects += other.objects
        requestedBytes += other.requestedBytes
        liveObjects += other.liveObjects
        liveRequestedBytes += other.liveRequestedBytes
    }

    package mutating func subtract(_ other: TypeCounts) {
        objects -= other.objects
        requestedBytes -= other.requestedBytes
        liveObjects -= other.liveObjects
        liveRequestedBytes -= other.liveRequestedBytes
    }
}

/// The name stored for the blocks of an instance no Swift object claims (C and Foundation
/// buffers, malloc called directly): the remainder that makes the types add up.
package enum ObjectTypeName {
    package static let remainder = "(not a Swift object)"
}
