import Foundation

/// A run as Chrome trace-event JSON, which Perfetto UI and chrome://tracing open:
/// one process per run, one track (thread) per strategy, a counter track of live bytes
/// per strategy (one sample per recorded step), a slice per step, and an instant event
/// per lifecycle event with its component and bytes. Timestamps are microseconds since
/// the run started.
public enum ChromeTrace {
    public static func export(_ runs: [RunInfo], from db: any SQLRowSource) throws -> String {
        var events: [String] = []
        for (index, run) in runs.enumerated() {
            events += try trace(run, pid: index + 1, db: db)
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

    static func trace(_ run: RunInfo, pid: Int, db: any SQLRowSource) throws -> [String] {
        let key = try db.scalar("SELECT run_key FROM runs WHERE run_id = ?", [.text(run.runID)]) ?? .null
        var strategies: [String] = []
        func tid(_ strategy: String) -> Int {
            if let index = strategies.firstIndex(of: strategy) { return index + 1 }
            strategies.append(strategy)
            return strategies.count
        }
        var out: [String] = [object([("name", "\"process_name\""), ("ph", "\"M\""), ("pid", "\(pid)"),
                                     ("args", object([("name", JSONText.string("\(run.scenario) run \(run.runID.prefix(8))"))]))])]
        // Steps and live bytes: from the samples, in time order per strategy.
        let samples = try db.rows("""
            SELECT m.strategy, st.name, m.repeat, m.live_requested_bytes, m.live_usable_bytes, m.elapsed_ns
            FROM samples m JOIN steps st ON st.run_key = m.run_key AND st.step = m.step
            WHERE m.run_key = ? ORDER BY m.elapsed_ns
            """, [key])
        // Strategies run one after another, so a step began when the previous sample was taken.
        var previous: Int64 = 0
        for row in samples {
            let strategy = row[0].string ?? "", elapsed = row[5].int64 ?? 0
            let thread = tid(strategy)
            let start = previous
            previous = elapsed
            out.append(object([("name", JSONText.string(row[1].string ?? "")), ("cat", "\"step\""), ("ph", "\"X\""),
                               ("pid", "\(pid)"), ("tid", "\(thread)"), ("ts", microseconds(start)),
                               ("dur", microseconds(max(0, elapsed - start))),
                               ("args", object([("repeat", JSONText.value(row[2]))]))]))
            out.append(object([("name", JSONText.string("live bytes: \(strategy)")), ("ph", "\"C\""), ("pid", "\(pid)"),
                               ("ts", microseconds(elapsed)),
                               ("args", object([("requested", JSONText.value(row[3])), ("usable", JSONText.value(row[4]))]))]))
        }
        // Every lifecycle event, at the moment its measured work started.
        let events = try db.rows("""
            SELECT s.strategy, k.name, s.component, e.instance, e.requested_bytes, e.requested_bytes + e.usable_extra_bytes,
                   e.duration_ns, e.at_us, x.repeat
            FROM event_series x JOIN events e ON e.series_id = x.series_id
            JOIN subjects s ON s.subject_id = x.subject_id JOIN event_kinds k ON k.kind_id = x.kind_id
            WHERE x.run_key = ? ORDER BY e.seq
            """, [key])
        for row in events {
            out.append(object([("name", JSONText.value(row[1])), ("cat", "\"lifecycle\""), ("ph", "\"i\""), ("s", "\"t\""),
                               ("pid", "\(pid)"), ("tid", "\(tid(row[0].string ?? ""))"), ("ts", String(row[7].int64 ?? 0)),
                               ("args", object([("component", JSONText.value(row[2])), ("instance", JSONText.value(row[3])),
                                                ("bytes", JSONText.value(row[4])), ("usable_bytes", JSONText.value(row[5])),
                                                ("duration_ns", JSONText.value(row[6])), ("repeat", JSONText.value(row[8]))]))]))
        }
        for (index, strategy) in strategies.enumerated() {
            out.append(object([("name", "\"thread_name\""), ("ph", "\"M\""), ("pid", "\(pid)"), ("tid", "\(index + 1)"),
                               ("args", object([("name", JSONText.string(strategy))]))]))
        }
        return out
    }
}
