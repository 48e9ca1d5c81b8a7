import Foundation
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

    @Test("never wider than asked: the bar shrinks to 10, then whole parts are left out")
    func fitsTheWidth() {
        for width in [200, 120, 100, 80, 60, 20] {
            #expect(ProgressBar.render(snapshot, width: width).count <= width, "width \(width)")
        }
        #expect(ProgressBar.render(snapshot, width: 115).contains("[########------------]"), "a 20-character bar, 41 % filled")
        // 80 columns (79 for the line): whole parts are left out, never half a number.
        #expect(ProgressBar.render(snapshot, width: 79) == "lazy-container [###########----------------] 41% Label lazy-realized, 0:03 left")
        #expect(ProgressBar.render(snapshot, width: 73) == "lazy-container [########-------------] 41% Label lazy-realized, 0:03 left")
    }

    @Test("at every width from 20 to 200 the line ends with a whole part")
    func wholeParts() {
        var finishing = snapshot
        finishing.finishing = true
        for s in [snapshot, finishing] {
            for width in 20...200 {
                let line = ProgressBar.render(s, width: width)
                #expect(line.count <= width)
                // Room for the scenario, a 10-character bar and the share: only whole parts.
                if width >= "lazy-container [] 100%".count + 10 {
                    #expect(["left", "%", "rollups"].contains { line.hasSuffix($0) }, "width \(width): \(line)")
                }
            }
        }
    }

    @Test("docs/cli.md's 80-column line is what is drawn")
    func documentedLine() throws {
        let docs = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let s = ProgressSnapshot(scenario: "lazy-container", component: "Label", strategy: "lazy-realized",
                                 instancesDone: 93_000, instancesTotal: 300_000, events: 2_560_800, elapsedSeconds: 4)
        #expect(docs.contains("at 80 columns `\(ProgressBar.render(s, width: 79))`"), "\(ProgressBar.render(s, width: 79))")
        #expect(docs.contains("(`\(ProgressBar.render(s, width: 200))`)"), "\(ProgressBar.render(s, width: 200))")
    }

    @Test("99 % says why: every instance built, then the recorder writing the rest")
    func ninetyNineSaysWhy() {
        var s = snapshot
        s.instancesDone = s.instancesTotal
        #expect(ProgressBar.render(s, width: 200).hasSuffix("99% Label lazy-realized 300,000/300,000 instances, 820.0k events/s, all instances built, finishing the last steps"))
        s.finishing = true
        #expect(ProgressBar.render(s, width: 200).hasSuffix("writing the last events and the rollups"))
        #expect(!ProgressBar.render(s, width: 200).contains("left"))
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
