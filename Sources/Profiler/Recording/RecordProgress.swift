import Foundation

/// Where a recording stands: what `profctl record` draws its progress bar from.
package struct ProgressSnapshot: Sendable, Equatable {
    package var scenario: String
    package var component: String
    package var strategy: String
    /// Instances built so far (create events), over all repeats.
    package var instancesDone: Int
    /// Instances the whole run builds, when the scenario can say; else an estimate.
    package var instancesTotal: Int
    package var events: Int
    package var elapsedSeconds: Double
    /// The scenario has run: the recorder is writing its last events and the rollups.
    package var finishing: Bool

    package init(scenario: String, component: String, strategy: String, instancesDone: Int, instancesTotal: Int,
                events: Int, elapsedSeconds: Double, finishing: Bool = false) {
        self.finishing = finishing
        self.scenario = scenario
        self.component = component
        self.strategy = strategy
        self.instancesDone = instancesDone
        self.instancesTotal = instancesTotal
        self.events = events
        self.elapsedSeconds = elapsedSeconds
    }

    /// Share of the run done, from the instances built; never 1 before the run ends.
    package var fraction: Double {
        guard instancesTotal > 0 else { return 0 }
        return min(0.99, Double(instancesDone) / Double(instancesTotal))
    }

    /// Events per second so far.
    package var eventsPerSecond: Double { elapsedSeconds > 0 ? Double(events) / elapsedSeconds : 0 }

    /// Seconds left at the pace so far; nil until there is a pace.
    package var secondsLeft: Double? {
        let f = fraction
        guard f > 0, elapsedSeconds > 0 else { return nil }
        return elapsedSeconds * (1 - f) / f
    }
}

/// Draws one progress line:
/// `lazy-container [########------------] 41% Label lazy-realized 123,000/300,000 instances, 812k events/s, 0:07 left`
package enum ProgressBar {
    /// The line for `snapshot`, at most `width` characters: the bar shrinks to fit (down
    /// to 10 characters), then whole parts are left out (the rate, then the instance
    /// counts, then the component and strategy), so an 80-column terminal never shows half
    /// a number. Only a line too narrow for the share alone is cut at the right.
    package static func render(_ s: ProgressSnapshot, width: Int) -> String {
        let percent = "\(Int((s.fraction * 100).rounded(.down)))%"
        let who = "\(s.component) \(s.strategy)"
        let count = "\(grouped(s.instancesDone))/\(grouped(s.instancesTotal)) instances"
        let rate = "\(rate(s.eventsPerSecond)) events/s"
        let candidates = [
            "\(percent) \(who) \(count), \(rate), \(status(s))",
            "\(percent) \(who) \(count), \(status(s))",
            "\(percent) \(who), \(status(s))",
            "\(percent) \(status(s))",
            percent,
        ]
        let around = s.scenario.count + 4  // "scenario [" and "] "
        let details = candidates.first { around + 10 + $0.count <= width } ?? percent
        let barWidth = max(10, min(30, width - around - details.count))
        let filled = Int((Double(barWidth) * s.fraction).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        return String("\(s.scenario) [\(bar)] \(details)".prefix(max(0, width)))
    }

    /// Time left; or why the share stays at 99 %: every instance is built and the last
    /// steps run, or the recorder writes the last events and the rollups.
    static func status(_ s: ProgressSnapshot) -> String {
        if s.finishing { return "writing the last events and the rollups" }
        if s.instancesTotal > 0, s.instancesDone >= s.instancesTotal { return "all instances built, finishing the last steps" }
        return s.secondsLeft.map { clock($0) + " left" } ?? "estimating"
    }

    /// The line a finished run leaves behind.
    package static func summary(scenario: String, runID: String, events: Int, seconds: Double, database: String) -> String {
        "recorded \(scenario) as run \(runID): \(events) events in " + String(format: "%.2f", seconds)
            + " s (\(rate(seconds > 0 ? Double(events) / seconds : 0)) events/s) into \(database)"
    }

    /// 1,234,567
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return n < 0 ? "-" + out : out
    }

    /// 950, 81.2k, 1.21M
    static func rate(_ value: Double) -> String {
        switch value {
        case ..<1_000: String(format: "%.0f", value)
        case ..<1_000_000: String(format: "%.1fk", value / 1_000)
        default: String(format: "%.2fM", value / 1_000_000)
        }
    }

    /// 0:07, 12:30, 1:02:03
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }
}

/// Receives progress while a run records (the CLI draws it on a terminal).
package protocol ProgressDisplay: AnyObject, Sendable {
    /// Called about ten times a second while the run records.
    func update(_ snapshot: ProgressSnapshot)
    /// The run ended (finished or failed): take the bar away.
    func clear()
}
