/// What each instance of one subject in one repeat holds (its create and realize events'
/// bytes summed), folded as the writer writes the events, while every instance's events
/// come together and the instances only go one way (a lazy container's create and realize
/// events, instance after instance). Then the rollups need not read those events back to
/// pair them by instance: the smallest and largest instance are known. Its size does not
/// grow with events.
struct HeldInstances {
    /// Still exact: no instance has come back after another one.
    private(set) var valid = true
    private(set) var instances = 0
    private(set) var minRequested: Int64 = .max, maxRequested: Int64 = .min
    private(set) var minUsable: Int64 = .max, maxUsable: Int64 = .min
    private var current = 0
    private var direction = 0
    private var requested: Int64 = 0
    private var usable: Int64 = 0

    mutating func add(instance: Int, requested r: Int64, usable u: Int64) {
        if instances > 0 && instance == current {
            requested &+= r
            usable &+= u
            return
        }
        if instances > 0 {
            let step = instance > current ? 1 : -1
            if direction != 0 && step != direction { valid = false }
            direction = step
            fold()
        }
        instances += 1
        current = instance
        requested = r
        usable = u
    }

    /// The figures with the instance in progress counted.
    var finished: HeldInstances {
        var copy = self
        if copy.instances > 0 { copy.fold() }
        return copy
    }

    private mutating func fold() {
        minRequested = min(minRequested, requested); maxRequested = max(maxRequested, requested)
        minUsable = min(minUsable, usable); maxUsable = max(maxUsable, usable)
    }
}
