import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerModel
import ProfilerOutputs
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerSupport

@Suite("Renderers")
struct RendererTests {
    let table = ResultTable(columns: ["name", "bytes", "pct"], rows: [
        [.text("a, \"quoted\"\nname"), .integer(48), .real(94.64)],
        [.text("b|c"), .real(705), .null],
    ])

    @Test("CSV quotes what needs quoting and leaves NULL empty")
    func csv() {
        #expect(CSVRenderer().render(table) == "name,bytes,pct\r\n\"a, \"\"quoted\"\"\nname\",48,94.64\r\nb|c,705,\r\n")
    }

    @Test("JSON is an array of objects that Foundation can parse, keys in column order")
    func json() throws {
        let text = JSONRenderer().render(table)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.count == 2)
        #expect(parsed[0]["name"] as? String == "a, \"quoted\"\nname")
        #expect(parsed[1]["bytes"] as? Int == 705)
        #expect(parsed[1]["pct"] is NSNull)
        #expect(text.range(of: "\"name\"")!.lowerBound < text.range(of: "\"bytes\"")!.lowerBound)
    }

    @Test("Markdown is a pipe table with numeric columns right-aligned")
    func markdown() {
        let lines = MarkdownRenderer().render(table).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0] == "| name | bytes | pct |")
        #expect(lines[2] == "| a, \"quoted\"<br>name | 48 | 94.64 |")
        #expect(lines[1] == "|---|---:|---:|")
        #expect(lines[3] == "| b\\|c | 705 | - |")
    }

    @Test("the text table aligns numbers to the right")
    func text() {
        let out = TableRenderer().render(ResultTable(columns: ["k", "n"], rows: [[.text("x"), .integer(5)], [.text("yy"), .integer(100)]]))
        #expect(out == "k     n\n--  ---\nx     5\nyy  100\n")
    }
}
