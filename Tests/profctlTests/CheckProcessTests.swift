import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `check`, `baseline`, `compare`, `trend` and `merge` through the real binary.
@Suite("CI checks through profctl")
struct CheckProcessTests {
    func sqlite(_ sql: String, _ db: URL) throws {
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), [db.path, sql], in: db.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("two recordings of the same code pass against the previous one")
    func samePasses() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "image-cache", "--instances", "20"], in: folder)
        try ProfctlProcess.record(["lazy-container", "image-cache", "--instances", "20"], in: folder)
        let check = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("lazy-container run") && check.stdout.contains(": PASS"))
    }

    @Test("a larger component is a regression (exit 2) naming component, strategy, metric, old and new value")
    func largerRegresses() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["image-cache"], in: folder)
        try ProfctlProcess.record(["image-cache", "--set", "icon_side=40"], in: folder)
        let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch", "--format", "json"], in: folder.url)
        #expect(check.status == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.first?["outcome"] as? String == "regression")
        let verdicts = try #require(checks.first?["verdicts"] as? [[String: Any]])
        let shown = try #require(verdicts.first { $0["metric"] as? String == "live_bytes_while_shown" && $0["strategy"] as? String == "strong-cache" })
        #expect(shown["status"] as? String == "regression")
        // One 36x36 icon became 40x40: (40*40 - 36*36) * 4 bytes more.
        let old = try #require(shown["baseline"] as? Double), new = try #require(shown["current"] as? Double)
        #expect(new - old == Double((40 * 40 - 36 * 36) * 4))
        let table = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch"], in: folder.url)
        #expect(table.stdout.contains("live_bytes_while_shown") && table.stdout.contains("strong-cache") && table.stdout.contains("regression"))
    }

    @Test("a budget breaks without a baseline, naming the component")
    func budget() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "10"], in: folder)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        try """
            budgets:
              - scenario: lazy-container
                component: Label
                strategy: eager
                metric: bytes_per_instance
                max: 700
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let check = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(check.status == 2)
        #expect(check.stdout.contains("bytes_per_instance") && check.stdout.contains("Label") && check.stdout.contains("over-budget"))
        try "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: 100000\n".write(to: budgets, atomically: true, encoding: .utf8)
        #expect(try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url).status == 0)
    }

    @Test("a missing baseline exits 5; a baseline from another build configuration exits 6 unless allowed")
    func missingAndMismatched() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        let missing = try ProfctlProcess.run(["check", "--baseline", "no-such-label"], in: folder.url)
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("baseline not found: no label or run 'no-such-label'"))
        let first = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
        #expect(first.status == 5)

        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        let db = folder.url.appendingPathComponent("profile.sqlite")
        try sqlite("""
            UPDATE runs SET build_configuration = CASE build_configuration WHEN 'debug' THEN 'release' ELSE 'debug' END
            WHERE started_at = (SELECT min(started_at) FROM runs)
            """, db)
        let mismatch = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
        #expect(mismatch.status == 6)
        #expect(mismatch.stderr.contains("another environment (build_configuration"))
        #expect(try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-env-mismatch"], in: folder.url).status == 0)
    }

    @Test("check decides latencies over repeats from the rollups alone, without the events")
    func latenciesFromRollups() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "10", "--repeat", "5"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "10", "--repeat", "5"], in: folder)
        try sqlite("DELETE FROM events", folder.url.appendingPathComponent("profile.sqlite"))
        let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", "json"], in: folder.url)
        #expect(check.status == 0 || check.status == 2, "\(check.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let verdicts = try #require((json["checks"] as? [[String: Any]])?.first?["verdicts"] as? [[String: Any]])
        let latencies = verdicts.filter { ($0["metric"] as? String)?.contains("_ns@") == true }
        #expect(latencies.count >= 5)
        #expect(latencies.allSatisfy { $0["status"] as? String != "inconclusive" && $0["status"] as? String != "new" })
    }

    @Test("labels: set, list, check against, remove")
    func labels() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        #expect(try ProfctlProcess.run(["baseline", "set", "main"], in: folder.url).status == 0)
        let list = try ProfctlProcess.run(["baseline", "list", "--format", "csv"], in: folder.url)
        #expect(list.stdout.contains("main,identity,"))
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        #expect(try ProfctlProcess.run(["check", "--baseline", "main"], in: folder.url).status == 0)
        #expect(try ProfctlProcess.run(["baseline", "rm", "main"], in: folder.url).status == 0)
        // Removed already: a label that does not exist is a name typed wrong, exit 64.
        #expect(try ProfctlProcess.run(["baseline", "rm", "main"], in: folder.url).status == 64)
        #expect(try ProfctlProcess.run(["check", "--baseline", "main"], in: folder.url).status == 5)
    }

    @Test("junit output is valid XML with one test case per gated metric; markdown is a table")
    func formats() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "6"], in: folder)
        let junit = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch", "--format", "junit"], in: folder.url)
        #expect(junit.status == 2)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(junit.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.elements.first == "testsuites")
        #expect(collector.count("testcase") > 10)
        #expect(collector.count("failure") >= 1)
        let markdown = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch", "--format", "markdown"], in: folder.url)
        let lines = markdown.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("| metric | component | strategy |") })
        #expect(lines.contains { $0.hasPrefix("|---|") })
        let github = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch", "--format", "github"], in: folder.url)
        #expect(github.stdout.contains("::error title=profctl check identity::"))
    }

    @Test("compare shows every metric; trend lists a metric over runs")
    func compareAndTrend() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let runs = try ProfctlProcess.run(["runs", "--format", "csv"], in: folder.url).stdout
            .split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",")[0]) }
        let compare = try ProfctlProcess.run(["compare", runs[1], runs[0], "--format", "csv"], in: folder.url)
        #expect(compare.status == 0)
        #expect(compare.stdout.contains("bytes_per_instance,Label,eager,705,705,0,0,pass"))
        let trend = try ProfctlProcess.run(["trend", "--scenario", "lazy-container", "--component", "Label",
                                            "--strategy", "lazy", "--metric", "bytes_per_instance", "--format", "csv"], in: folder.url)
        #expect(trend.status == 0)
        let lines = trend.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let value = try #require(lines.first?.firstIndex(of: "value"))
        #expect(lines.dropFirst().map { $0[value] } == ["48", "48"])
    }

    @Test("merge holds the union of the runs; merging again adds nothing; inputs are not modified")
    func merge() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "4"], db: "a.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "4"], db: "b.sqlite", in: folder)
        try ProfctlProcess.record(["identity", "--instances", "4"], db: "b.sqlite", in: folder)
        let a = folder.url.appendingPathComponent("a.sqlite"), b = folder.url.appendingPathComponent("b.sqlite")
        // An input run whose recorder died stays out of the merge, and the input stays as it was.
        try ProfctlProcess.record(["identity", "--instances", "4"], db: "a.sqlite", in: folder)
        try sqlite("""
            UPDATE runs SET status = 'running', process_id = 2147483000
            WHERE started_at = (SELECT max(started_at) FROM runs); PRAGMA wal_checkpoint(TRUNCATE);
            """, a)
        let before = (try Data(contentsOf: a), try Data(contentsOf: b))
        let first = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("b.sqlite: 2 runs added"))
        let again = try ProfctlProcess.run(["merge", "all.sqlite", "a.sqlite", "b.sqlite"], in: folder.url)
        #expect(again.stderr.contains("a.sqlite: 0 runs added, 1 already in all.sqlite"))
        #expect((try Data(contentsOf: a), try Data(contentsOf: b)) == before)
        let counts = try ProfctlProcess.run(["query", "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM events), (SELECT count(*) FROM rollups)",
                                             "--db", "all.sqlite", "--format", "csv"], in: folder.url)
        let expected = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
                                              [a.path, """
                                                ATTACH '\(b.path)' AS b;
                                                SELECT (SELECT count(*) FROM runs WHERE status <> 'running') + (SELECT count(*) FROM b.runs),
                                                       (SELECT count(*) FROM event_rows WHERE run_key IN (SELECT run_key FROM runs WHERE status <> 'running'))
                                                         + (SELECT count(*) FROM b.events),
                                                       (SELECT count(*) FROM rollups WHERE run_key IN (SELECT run_key FROM runs WHERE status <> 'running'))
                                                         + (SELECT count(*) FROM b.rollups)
                                                """],
                                              in: folder.url)
        #expect(counts.stdout.split(whereSeparator: \.isNewline).last.map(String.init) == expected.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "|", with: ","))
        let report = try ProfctlProcess.run(["report", "--db", "all.sqlite", "--scenario", "lazy-container", "--format", "csv"], in: folder.url)
        #expect(report.stdout.contains("Label,lazy,4,48,"))
    }
}

/// Collects element names, to check an XML document's structure.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [String] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(name)
    }
    func count(_ name: String) -> Int { elements.filter { $0 == name }.count }
}
