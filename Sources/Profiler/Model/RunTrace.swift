/// What a run's Chrome trace shows, read from the store by TraceQuery and drawn by
/// ChromeTrace (which runs no SQL). Values stay `SQLValue`s where the trace prints a
/// stored value as it is (NULL as null).
package struct RunTrace: Sendable, Equatable {
    /// One sample: live bytes of a strategy after a step (of one component), in time order.
    package struct Sample: Sendable, Equatable {
        package let strategy: String
        /// The step's component; empty when the step is not one component's.
        package let component: String
        package let step: String
        package let repeatIndex: SQLValue
        package let liveRequestedBytes: SQLValue
        package let liveUsableBytes: SQLValue
        package let elapsedNanoseconds: Int64

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
    package struct Event: Sendable, Equatable {
        package let strategy: String
        package let kind: SQLValue
        package let component: SQLValue
        package let instance: SQLValue
        /// The change in live heap bytes the event caused (event_log's requested_bytes), and in usable bytes.
        package let netLiveBytes: SQLValue
        package let netLiveUsableBytes: SQLValue
        package let durationNanoseconds: SQLValue
        /// Microseconds since the run started, when its measured work began.
        package let atMicroseconds: Int64
        package let repeatIndex: SQLValue

        package init(strategy: String, kind: SQLValue, component: SQLValue, instance: SQLValue, netLiveBytes: SQLValue,
                     netLiveUsableBytes: SQLValue, durationNanoseconds: SQLValue, atMicroseconds: Int64, repeatIndex: SQLValue) {
            self.strategy = strategy
            self.kind = kind
            self.component = component
            self.instance = instance
            self.netLiveBytes = netLiveBytes
            self.netLiveUsableBytes = netLiveUsableBytes
            self.durationNanoseconds = durationNanoseconds
            self.atMicroseconds = atMicroseconds
            self.repeatIndex = repeatIndex
        }
    }

    package let run: RunInfo
    package let samples: [Sample]
    package let events: [Event]

    package init(run: RunInfo, samples: [Sample], events: [Event]) {
        self.run = run
        self.samples = samples
        self.events = events
    }
}
