/// One row of the `types` view: a type's objects in the measured instances of one
/// (component, strategy, kind) of a run.
public struct TypeRow: Sendable, Equatable {
    public let component: String
    public let strategy: String
    public let kind: String
    public let type: String
    /// The row of blocks no object claims (``ObjectTypeName/remainder``).
    public let isRemainder: Bool
    /// Measured instances (events) the counts are summed over.
    public let instances: Int
    public let counts: TypeCounts

    public init(component: String, strategy: String, kind: String, type: String, isRemainder: Bool, instances: Int,
                counts: TypeCounts) {
        self.component = component
        self.strategy = strategy
        self.kind = kind
        self.type = type
        self.isRemainder = isRemainder
        self.instances = instances
        self.counts = counts
    }

    /// Objects per measured instance, exact when the instances all allocate alike.
    public var objectsPerInstance: Double { instances > 0 ? Double(counts.objects) / Double(instances) : 0 }
}
