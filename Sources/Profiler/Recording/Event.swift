/// What happened to one instance of a component.
public enum EventKind: String, Sendable, CaseIterable, Codable {
    /// The instance (or its lazy container) was built.
    case create
    /// A lazy container built its real component.
    case realize
    /// A cache answered from what it held, or had to load.
    case hit, miss
    /// A cache dropped an entry.
    case evict
    /// The instance, or its realized component, was given up.
    case release
    /// The run loop went idle: a sweeping cache sweeps (a cache's trace marks it for replay).
    case idle

    /// The key events store, as in the event_kinds table of migrations/0001_initial.sql (idle: 0013_cache_trace.sql).
    package var code: Int64 {
        switch self {
        case .create: 0
        case .realize: 1
        case .hit: 2
        case .miss: 3
        case .evict: 4
        case .release: 5
        case .idle: 6
        }
    }
}

/// One lifecycle event with the bytes the allocation hooks measured for it.
public struct Event: Sendable, Equatable {
    public var kind: EventKind
    public var component: String
    public var strategy: String
    public var repeatIndex: Int
    public var instance: Int
    public var allocations: Int
    public var frees: Int
    /// The change in live heap bytes the event caused, in requested bytes (negative for a
    /// release): ``Allocations/netLiveBytes`` of its measured region. Not the bytes the
    /// region allocated, which ``Allocations/requestedBytes`` counts.
    public var netLiveBytes: Int
    /// The same in usable bytes (``Allocations/netLiveUsableBytes``).
    public var netLiveUsableBytes: Int
    public var durationNanoseconds: UInt64
    /// When the measured work started, on the monotonic clock; 0 when unknown.
    public var startNanoseconds: UInt64
    /// Swift retains and releases the measured work made (0 while ARC counting is off; the
    /// recorder stores NULL for a run that did not count them).
    package var retains = 0
    package var releases = 0
    /// The measured work's own allocations less its own frees at the highest point, in
    /// requested bytes (docs/hooks.md, "Peak"); 0 for an event nothing measured.
    package var peakRequestedBytes = 0

    public init(kind: EventKind, component: String, strategy: String, repeatIndex: Int, instance: Int,
                allocations: Int, frees: Int, netLiveBytes: Int, netLiveUsableBytes: Int, durationNanoseconds: UInt64,
                startNanoseconds: UInt64 = 0) {
        self.kind = kind
        self.component = component
        self.strategy = strategy
        self.repeatIndex = repeatIndex
        self.instance = instance
        self.allocations = allocations
        self.frees = frees
        self.netLiveBytes = netLiveBytes
        self.netLiveUsableBytes = netLiveUsableBytes
        self.durationNanoseconds = durationNanoseconds
        self.startNanoseconds = startNanoseconds
    }
}

extension Event {
    /// The name before ``netLiveBytes``: an event's bytes are a net change, not what it allocated.
    @available(*, deprecated, renamed: "netLiveBytes")
    public var requestedBytes: Int {
        get { netLiveBytes }
        set { netLiveBytes = newValue }
    }

    @available(*, deprecated, renamed: "netLiveUsableBytes")
    public var usableBytes: Int {
        get { netLiveUsableBytes }
        set { netLiveUsableBytes = newValue }
    }

    @available(*, deprecated, renamed: "init(kind:component:strategy:repeatIndex:instance:allocations:frees:netLiveBytes:netLiveUsableBytes:durationNanoseconds:startNanoseconds:)")
    public init(kind: EventKind, component: String, strategy: String, repeatIndex: Int, instance: Int,
                allocations: Int, frees: Int, requestedBytes: Int, usableBytes: Int, durationNanoseconds: UInt64,
                startNanoseconds: UInt64 = 0) {
        self.init(kind: kind, component: component, strategy: strategy, repeatIndex: repeatIndex, instance: instance,
                  allocations: allocations, frees: frees, netLiveBytes: requestedBytes, netLiveUsableBytes: usableBytes,
                  durationNanoseconds: durationNanoseconds, startNanoseconds: startNanoseconds)
    }
}

/// Where instrumented primitives send their events: the recorder, or a fake in tests.
public protocol EventSink: AnyObject, Sendable {
    /// Accepts one event. May block while the sink catches up; never drops silently:
    /// throws when the event cannot be kept.
    func record(_ event: Event) throws
    /// Events recorded from now on belong to the named step.
    func enterStep(_ name: String) throws
    /// Records the live bytes of a strategy's events so far in this repeat, after a step
    /// of `component` (empty when the step is not one component's): a point of its own.
    func sample(strategy: String, component: String, repeatIndex: Int) throws
    /// Records a number observed in the current step (added to any earlier value).
    func metric(_ name: String, _ value: Double, strategy: String, repeatIndex: Int) throws
    /// Adds the temporaries and size classes of the calling thread's region `scopeID`,
    /// which has just closed, to the event's series (component, strategy, kind).
    func addLifetimes(of scopeID: UInt64, for event: Event)
}

extension EventSink {
    package func enterStep(_ name: String) throws {}
    package func sample(strategy: String, component: String, repeatIndex: Int) throws {}
    package func metric(_ name: String, _ value: Double, strategy: String, repeatIndex: Int) throws {}
    package func addLifetimes(of scopeID: UInt64, for event: Event) {}
}
