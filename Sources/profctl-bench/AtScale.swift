import Foundation
import Profiler

/// Databases with N synthetic events (lazy-container's shape: 3 components x 3
/// strategies, create/realize/release), written by a child process that reports its peak
/// RSS; then the savings report and a documented ad-hoc aggregate are timed on each.
struct AtScale {
    let sizes: [Int]
    let folder: URL

    /// Grouped on the series first, which streams (events are clustered by series), and
    /// named after: the joins then touch one row per series, not 10M.
    static let adHocQuery = """
        SELECT s.component, k.name AS kind, sum(g.events) AS events, sum(g.bytes) AS bytes
        FROM (SELECT series_id, count(*) AS events, sum(requested_bytes) AS bytes
              FROM events GROUP BY series_id) g
        JOIN event_series x ON x.series_id = g.series_id
        JOIN subjects s ON s.subject_id = x.subject_id JOIN event_kinds k ON k.kind_id = x.kind_id
        GROUP BY s.component, k.name
        """

    /// What an analyst writes first (issue 25): every event through the event_log view,
    /// grouped by a name. Measured against adHocQuery on the same database in the same run.
    static let naiveQuery = "SELECT kind, count(*), sum(requested_bytes) FROM event_log GROUP BY kind"

    /// In the child: record `count` events into `path`, then print the peak RSS in KiB.
    static func writeSynthetic(count: Int, path: String) throws {
        let recorder = try Recorder.start(database: path, run: RunDescription(scenario: "synthetic", baselineStrategy: "eager", parameters: ["events": .int(count)]))
        let components = ["Label", "Button", "ImageView"], strategies = ["eager", "lazy", "lazy-realized"]
        var written = 0, instance = 0
        outer: while true {
            for component in components {
                for strategy in strategies {
                    let kinds: [(EventKind, Int)] = strategy == "eager" ? [(.create, 705), (.release, -705)]
                        : strategy == "lazy" ? [(.create, 48), (.release, -48)] : [(.create, 48), (.realize, 705), (.release, -753)]
                    for (kind, bytes) in kinds {
                        try recorder.record(Event(kind: kind, component: component, strategy: strategy, repeatIndex: 0,
                                                  instance: instance, allocations: 1, frees: 0, netLiveBytes: bytes,
                                                  netLiveUsableBytes: bytes + 8, durationNanoseconds: 900))
                        written += 1
                        if written >= count { break outer }
                    }
                }
            }
            instance += 1
        }
        try recorder.finish()
        print(peakResidentKiB())
    }

    static func peakResidentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func generate(_ count: Int) throws -> (path: String, peakKiB: Int, seconds: Double) {
        let path = folder.appendingPathComponent("scale-\(count).sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--write-synthetic", String(count), path]
        let out = Pipe()
        process.standardOutput = out
        let start = AllocationScope.monotonicNanoseconds()
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SQLiteError(code: 1, message: "the synthetic writer failed")
        }
        return (path, kib, Double(AllocationScope.monotonicNanoseconds() - start) / 1e9)
    }

    func time(_ body: () throws -> Void) rethrows -> Double {
        try timeWithCPU(body).wall
    }

    /// Median wall time and CPU time of the process (all threads, the sorter's too) in ms:
    /// on a loaded machine a query waits for a core most of its wall time.
    func timeWithCPU(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        try body()
        var times: [Double] = [], cpu: [Double] = []
        for _ in 0..<3 {
            let start = AllocationScope.monotonicNanoseconds()
            let cpuStart = EndToEnd.processCPUNanoseconds()
            try body()
            times.append(Double(AllocationScope.monotonicNanoseconds() - start) / 1e6)
            cpu.append(Double(EndToEnd.processCPUNanoseconds() - cpuStart) / 1e6)
        }
        return (median(times), median(cpu))
    }

    func figures() throws -> [Figure] {
        var figures: [Figure] = []
        var peaks: [Int] = []
        for count in sizes {
            let generated = try generate(count)
            peaks.append(generated.peakKiB)
            let db = try ProfileStore.openForReading(path: generated.path)
            let run = try RunQueries.resolve("latest", in: db)
            let report = try time { _ = try RunReport.load(run, measure: .requested, catalog: BuiltInScenarios.reportCatalog(in: db), from: db) }
            let (adHoc, adHocCPU) = try timeWithCPU { _ = try db.rows(Self.adHocQuery) }
            let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1000)k"
            figures.append(Figure(section: "at scale", metric: "savings report, \(label) events", baseline: "-", baselineValue: nil,
                                  value: report, unit: "ms", target: "<= 50 ms", met: report <= 50))
            figures.append(Figure(section: "at scale", metric: "ad-hoc aggregate, \(label) events", baseline: "-", baselineValue: nil,
                                  value: adHoc, unit: "ms", target: "<= 2000 ms", met: adHoc <= 2000))
            figures.append(Figure(section: "at scale", metric: "ad-hoc aggregate, \(label) events, CPU time", baseline: "-",
                                  baselineValue: nil, value: adHocCPU, unit: "ms", target: nil, met: nil))
            let (naive, naiveCPU) = try timeWithCPU { _ = try db.rows(Self.naiveQuery) }
            figures.append(Figure(section: "at scale", metric: "plain GROUP BY kind over event_log, \(label) events",
                                  baseline: "the ad-hoc aggregate above, same database: \(String(format: "%.0f", adHoc)) ms",
                                  baselineValue: adHoc, value: naive, unit: "ms", target: "<= 2000 ms", met: naive <= 2000))
            figures.append(Figure(section: "at scale", metric: "plain GROUP BY kind over event_log, \(label) events, CPU time",
                                  baseline: "the ad-hoc aggregate's CPU time: \(String(format: "%.0f", adHocCPU)) ms",
                                  baselineValue: adHocCPU, value: naiveCPU, unit: "ms", target: nil, met: nil))
            figures.append(Figure(section: "at scale", metric: "record \(label) events (incl. rollups)", baseline: "-", baselineValue: nil,
                                  value: generated.seconds, unit: "s", target: nil, met: nil))
            figures.append(Figure(section: "recorder memory", metric: "peak RSS recording \(label) events", baseline: "-", baselineValue: nil,
                                  value: Double(generated.peakKiB) / 1024, unit: "MiB", target: nil, met: nil))
        }
        if peaks.count >= 2, let first = peaks.first, let last = peaks.last {
            let growth = Double(last - first) / 1024
            figures.append(Figure(section: "recorder memory", metric: "peak RSS growth, smallest to largest", baseline: "-", baselineValue: nil,
                                  value: growth, unit: "MiB", target: "<= 16 MiB", met: growth <= 16))
        }
        return figures
    }
}
