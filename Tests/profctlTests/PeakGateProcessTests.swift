import Foundation
import Testing

/// `check` gates the peak per instance (docs/ci.md, "Peaks are exact") where it gates the
/// other byte figures: against a baseline, exactly, and in budgets.
@Suite("check: the peak of live bytes per instance")
struct PeakGateProcessTests {
    func record(_ arguments: [String], in folder: TemporaryFolder) throws {
        let result = try ProfctlProcess.run(["record"] + arguments + ["--quiet"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("a budget on peak_bytes_per_instance fails when building held more: exit 2, over-budget")
    func budget() throws {
        let folder = try TemporaryFolder()
        try record(["lazy-container", "--instances", "5"], in: folder)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        func check(max: Int) throws -> ProfctlProcess.Result {
            try """
                budgets:
                  - scenario: lazy-container
                    component: Label
                    strategy: eager
                    metric: peak_bytes_per_instance
                    max: \(max)
                """.write(to: budgets, atomically: true, encoding: .utf8)
            return try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        }
        let peak = try ProfctlProcess.run(["query", """
            SELECT peak_bytes_per_instance FROM savings_by_measure
            WHERE bytes_measure = 'requested' AND component = 'Label' AND strategy = 'eager'
            """, "--format", "csv"], in: folder.url).stdout.split(whereSeparator: \.isNewline).last.flatMap { Double($0) }
        let value = try #require(peak, "the savings view has the peak of a run recorded now")
        #expect(value >= 705, "at least what an eager Label keeps")
        let over = try check(max: Int(value) - 1)
        #expect(over.status == 2, "\(over.stdout)\(over.stderr)")
        #expect(over.stdout.contains("peak_bytes_per_instance") && over.stdout.contains("over-budget"), "\(over.stdout)")
        let within = try check(max: Int(value))
        #expect(within.status == 0, "\(within.stdout)\(within.stderr)")
    }

    @Test("against the previous run the peak is compared exactly: identical runs pass, the metric is listed")
    func baseline() throws {
        let folder = try TemporaryFolder()
        try record(["lazy-container", "--instances", "5"], in: folder)
        try record(["lazy-container", "--instances", "5"], in: folder)
        let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", "json"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let verdicts = (json["checks"] as? [[String: Any]])?.flatMap { $0["verdicts"] as? [[String: Any]] ?? [] } ?? []
        let peaks = verdicts.filter { $0["metric"] as? String == "peak_bytes_per_instance" }
        #expect(peaks.count == 9, "one per component and strategy: \(check.stdout)")
        #expect(peaks.allSatisfy { $0["status"] as? String == "pass" && $0["note"] as? String == "exact" }, "\(peaks)")
    }
}
