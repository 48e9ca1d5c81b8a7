import Foundation
import ProfilerModel

/// A run as Chrome trace-event JSON, which Perfetto UI and chrome://tracing open:
/// one process per run, one track (thread) per strategy, a counter track of live bytes
/// per strategy (one sample per recorded step), a slice per step of each component (named
/// "Label build"; a step that is not one component's is named alone), and an instant event
/// per lifecycle event with its component and bytes. Timestamps are microseconds since
/// the run started.
package enum ChromeTrace {
    /// The runs' traces (TraceQuery reads them) as one trace-event document.
    package static func export(_ traces: [RunTrace]) -> String {
        var events: [String] = []
        for (index, trace) in traces.enumerated() {
            events += self.trace(trace, pid: index + 1)
        }
        let metadata = "{\"tool\": \"profctl\", \"version\": \(JSONText.string(ProfilerVersion.current))}"
        return "{\"displayTimeUnit\": \"ns\", \"otherData\": \(metadata), \"traceEvents\": [\n"
            + events.joined(separator: ",\n") + "\n]}\n"
    }

    static func microseconds(_ nanoseconds: Int64) -> String {
        String(format: "%.3f", Double(nanoseconds) / 1000)
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(JSONText.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func trace(_ trace: RunTrace, pid: Int) -> [String] {
        let run = trace.run
        var strategies: [String] = []
        func tid(_ strategy: String) -> Int {
            if let index = strategies.firstIndex(of: strategy) { return index + 1 }
            strategies.append(strategy)
            return strategies.count
        }
        var out: [String] = [object([("name", "\"process_name\""), ("ph", "\"M\""), ("pid", "\(pid)"),
                                     ("args", object([("name", JSONText.string("\(run.scenario) run \(run.runID.prefix(8))"))]))])]
        // Strategies run one after another, so a step began when the previous sample was taken.
        var previous: Int64 = 0
        for sample in trace.samples {
            let strategy = sample.strategy, elapsed = sample.elapsedNanoseconds
            let thread = tid(strategy)
            let start = previous
            previous = elapsed
            let name = sample.component.isEmpty ? sample.step : sample.component + " " + sample.step
            var args = [("repeat", JSONText.value(sample.repeatIndex))]
            if !sample.component.isEmpty { args.append(("component", JSONText.string(sample.component))) }
            out.append(object([("name", JSONText.string(name)), ("cat", "\"step\""), ("ph", "\"X\""),
                               ("pid", "\(pid)"), ("tid", "\(thread)"), ("ts", microseconds(start)),
                               ("dur", microseconds(max(0, elapsed - start))),
                               ("args", object(args))]))
            out.append(object([("name", JSONText.string("live bytes: \(strategy)")), ("ph", "\"C\""), ("pid", "\(pid)"),
                               ("ts", microseconds(elapsed)),
                               ("args", object([("requested", JSONText.value(sample.liveRequestedBytes)),
                                                ("usable", JSONText.value(sample.liveUsableBytes))]))]))
        }
        // Every lifecycle event, at the moment its measured work started.
        for event in trace.events {
            out.append(object([("name", JSONText.value(event.kind)), ("cat", "\"lifecycle\""), ("ph", "\"i\""), ("s", "\"t\""),
                               ("pid", "\(pid)"), ("tid", "\(tid(event.strategy))"), ("ts", String(event.atMicroseconds)),
                               ("args", object([("component", JSONText.value(event.component)), ("instance", JSONText.value(event.instance)),
                                                ("bytes", JSONText.value(event.netLiveBytes)), ("usable_bytes", JSONText.value(event.netLiveUsableBytes)),
                                                ("duration_ns", JSONText.value(event.durationNanoseconds)),
                                                ("repeat", JSONText.value(event.repeatIndex))]))]))
        }
        for (index, strategy) in strategies.enumerated() {
            out.append(object([("name", "\"thread_name\""), ("ph", "\"M\""), ("pid", "\(pid)"), ("tid", "\(index + 1)"),
                               ("args", object([("name", JSONText.string(strategy))]))]))
        }
        return out
    }
}
