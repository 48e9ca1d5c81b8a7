/// What a run's Chrome trace shows, read from the store by TraceQuery and drawn by
/// ChromeTrace (which runs no SQL). Values stay `SQLValue`s where the trace prints a
/// stored value as it is (NULL as null).
public struct RunTrace: Sendable, Equatable {
    /// One sample: live bytes of a strategy after a step (of one component), in time order.
    public struct Sample: Sendable, Equatable {
        public let strategy: String
        /// The step's component; empty when the step is not one component's.
        public let component: String
        public let step: String
        public let repeatIndex: SQLValue
        public let liveRequestedBytes: SQLValue
        public let liveUsableBytes: SQLValue
        public let elapsedNanoseconds: Int64

        package init(strategy: String, component: String = "", step: String, repeatIndex: SQLValue, liveRequestedBytes: SQLValue,
                     liveUsableBytes: SQLValue, elapsedNanoseconds: Int64) {
            self.strategy = strategy
            self.component = component
            self.step = step
            self.repeatIndex = repeatIndex
            self.liveRequestedBytes = liveRequestedBytes
            self.liveUsableBytes = liveUsableBytes
            self.elapsedNanoseconds = elapsedNanoseconds
        }
    }

    /// One lifecycle event, in recording order.
    public struct Event: Sendable, Equatable {
        public let strategy: String
        public let kind: SQLValue
        public let component: SQLValue
        public let instance: SQLValue
        public let requestedBytes: SQLValue
        public let usableBytes: SQLValue
        public let durationNanoseconds: SQLValue
        /// Microseconds since the run started, when its measured work began.
        public let atMicroseconds: Int64
        public let repeatIndex: SQLValue

        package init(strategy: String, kind: SQLValue, component: SQLValue, instance: SQLValue, requestedBytes: SQLValue,
                     usableBytes: SQLValue, durationNanoseconds: SQLValue, atMicroseconds: Int64, repeatIndex: SQLValue) {
            self.strategy = strategy
            self.kind = kind
            self.component = component
            self.instance = instance
            self.requestedBytes = requestedBytes
            self.usableBytes = usableBytes
            self.durationNanoseconds = durationNanoseconds
            self.atMicroseconds = atMicroseconds
            self.repeatIndex = repeatIndex
        }
    }

    public let run: RunInfo
    public let samples: [Sample]
    public let events: [Event]

    package init(run: RunInfo, samples: [Sample], events: [Event]) {
        self.run = run
        self.samples = samples
        self.events = events
    }
}
