import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerModel
import ProfilerOutputs
import ProfilerQueries
import ProfilerScenarios
import ProfilerSites
import ProfilerSupport

@Suite("Timestamps")
struct TimestampTests {
    @Test("hand-formatted UTC timestamps equal ISO8601DateFormatter's, to the millisecond")
    func sameAsFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for seconds in [0.0, 1_795_351_156.937, 1_795_351_156.001, 951_782_400.5, 4_102_444_799.999] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Timestamp.string(from: date) == formatter.string(from: date), "\(seconds)")
        }
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_795_351_156.937)) == "2026-11-22T12:39:16.937Z")
    }
}
