import Testing
import Profiler
@testable import ProfilerCatalog
@testable import ProfilerChecks
@testable import ProfilerComparison
@testable import ProfilerHooks
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerPrimitives
@testable import ProfilerQueries
@testable import ProfilerRecording
@testable import ProfilerScenarios
@testable import ProfilerSites
@testable import ProfilerSupport

@Suite("Progress bar")
struct ProgressBarTests {
    let snapshot = ProgressSnapshot(scenario: "lazy-container", component: "Label", strategy: "lazy-realized",
                                    instancesDone: 123_000, instancesTotal: 300_000, events: 1_640_000, elapsedSeconds: 2)

    @Test("one line: scenario, bar, share, component and strategy, instances of total, rate, time left")
    func rendersEverything() {
        let line = ProgressBar.render(snapshot, width: 160)
        #expect(line == "lazy-container [############------------------] 41% Label lazy-realized 123,000/300,000 instances, 820.0k events/s, 0:03 left")
        #expect(!line.contains("\n") && !line.contains("\r"))
    }

    @Test("never wider than asked: the bar shrinks to 10, then the line is cut at the right")
    func fitsTheWidth() {
        for width in [200, 120, 100, 80, 60, 20] {
            #expect(ProgressBar.render(snapshot, width: width).count <= width, "width \(width)")
        }
        #expect(ProgressBar.render(snapshot, width: 115).contains("[########------------]"), "a 20-character bar, 41 % filled")
        #expect(ProgressBar.render(snapshot, width: 79) == "lazy-container [####------] 41% Label lazy-realized 123,000/300,000 instances, ")
    }

    @Test("no estimate before anything is built; never 100 % before the end; clock and rates read well")
    func edges() {
        var s = snapshot
        s.instancesDone = 0
        #expect(ProgressBar.render(s, width: 200).contains("estimating"))
        s.instancesDone = 400_000
        #expect(s.fraction == 0.99)
        #expect(ProgressBar.clock(3725) == "1:02:05" && ProgressBar.clock(7.2) == "0:08")
        #expect(ProgressBar.rate(950) == "950" && ProgressBar.rate(1_210_000) == "1.21M")
        #expect(ProgressBar.grouped(1_234_567) == "1,234,567" && ProgressBar.grouped(12) == "12")
        #expect(ProgressBar.summary(scenario: "identity", runID: "r", events: 36, seconds: 0.5, database: "p.sqlite")
                == "recorded identity as run r: 36 events in 0.50 s (72 events/s) into p.sqlite")
    }
}
