import Foundation
import ProfilerTesting
import Testing

/// A limited test alone in its process (`swift test --filter`), whose `#expect` is the
/// process's first: Swift Testing makes a 64 B lock at that first check and keeps it, which a
/// `.noLeaks` test counted as its leak ("leaked: 64 B in 1 blocks") until the one-time
/// initializers were told apart (runtime_caches.c). FirstExpectationTests runs it in a child
/// process, as a user running one test does.
@Suite(.enabled(if: ProcessInfo.processInfo.environment[FirstExpectationTests.variable] != nil))
struct FirstExpectationFixture {
    @Test(.noLeaks) func checksOnce() {
        #expect([1, 2, 3].count == 3)
    }
}

@Suite struct FirstExpectationTests {
    static let variable = "PROFCTL_FIRST_EXPECTATION_FIXTURE"

    @Test func aNoLeaksTestAloneInItsProcessKeepsNothingOfSwiftTestings() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "FirstExpectationFixture"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.variable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(text.contains("Test checksOnce() passed"), "the fixture ran and passed:\n\(text)")
        #expect(child.terminationStatus == 0, "\(text)")
    }
}
