import ProfilerHooks

/// Names what is being measured (component, strategy, repeat, instance) and where the
/// events go. Instrumented primitives take one per call, so instrumentation adds no
/// stored bytes to the things being measured.
public struct Probe: Sendable {
    package let sink: any EventSink
    package let component: String
    package let strategy: String
    package let repeatIndex: Int
    package var instance: Int

    package init(sink: any EventSink, component: String, strategy: String, repeatIndex: Int = 0, instance: Int = 0) {
        self.sink = sink
        self.component = component
        self.strategy = strategy
        self.repeatIndex = repeatIndex
        self.instance = instance
    }

    /// The same probe for another instance.
    public func instance(_ index: Int) -> Probe {
        var copy = self
        copy.instance = index
        return copy
    }

    /// The same probe for another component (an image name, a row's part).
    package func component(_ name: String) -> Probe {
        Probe(sink: sink, component: name, strategy: strategy, repeatIndex: repeatIndex, instance: instance)
    }

    /// Sends one event for a measured region. Its own allocations are kept out of any
    /// region still open on this thread.
    package func emit<T>(_ kind: EventKind, _ measured: Measured<T>) throws {
        let a = measured.allocations
        var event = Event(kind: kind, component: component, strategy: strategy, repeatIndex: repeatIndex,
                          instance: instance, allocations: a.allocations, frees: a.frees,
                          netLiveBytes: a.netLiveBytes, netLiveUsableBytes: a.netLiveUsableBytes,
                          durationNanoseconds: measured.durationNanoseconds, startNanoseconds: measured.startNanoseconds)
        event.retains = a.retains
        event.releases = a.releases
        event.peakRequestedBytes = a.peakRequestedBytes
        try AllocationScope.excluded {
            // Types first: they read the sites' releases, which the sites' collect empties.
            if TypeCapture.isCapturing {
                TypeCapture.shared.collect(scopeID: measured.scopeID, component: component, strategy: strategy, kind: kind,
                                           keep: !(sink is DiscardingSink), region: a)
            }
            if SiteCapture.isCapturing {
                // A warm-up pass's events go nowhere, and so do its sites.
                SiteCapture.shared.collect(scopeID: measured.scopeID, component: component, strategy: strategy, kind: kind,
                                           keep: !(sink is DiscardingSink), untrackedFreedUsable: a.untrackedFreedUsableBytes)
            }
            try sink.record(event)
            sink.addLifetimes(of: measured.scopeID, for: event)
        }
    }

    /// Measures `body` and emits one event for it; returns what the body built.
    public func measure<T>(_ kind: EventKind, _ body: () throws -> T) throws -> T {
        let measured = try AllocationScope.measure(body)
        try emit(kind, measured)
        return measured.value
    }
}
