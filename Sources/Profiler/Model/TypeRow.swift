/// One row of the `types` view: a type's objects in the measured instances of one
/// (component, strategy, kind) of a run.
package struct TypeRow: Sendable, Equatable {
    package let component: String
    package let strategy: String
    package let kind: String
    package let type: String
    /// The row of blocks no object claims (``ObjectTypeCounts/remainder``).
    package let isRemainder: Bool
    /// Measured instances (events) the counts are summed over.
    package let instances: Int
    package let counts: TypeCounts

    package init(component: String, strategy: String, kind: String, type: String, isRemainder: Bool, instances: Int,
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
    package var objectsPerInstance: Double { instances > 0 ? Double(counts.objects) / Double(instances) : 0 }
}
