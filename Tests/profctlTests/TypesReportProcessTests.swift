import Foundation
import Testing
import Profiler

/// What a person reads in `report --format html` about types, from the page profctl
/// writes: per component, strategy and kind the types by their demangled names, with the
/// numbers `profctl types` prints, rows that add up to the events' allocations, and for
/// a run recorded without --types a note saying how to get them.
@Suite("The HTML report shows the types that fill the bytes")
struct TypesReportProcessTests {
    /// One row of a group as the page shows it: its label and its number cells.
    struct Row: Equatable {
        let kind: String
        let label: String
        let numbers: [Double]
    }

    /// The groups of `run`'s section: "component/strategy/kind" and their rows, in page order.
    static func groups(_ html: String, run: String) -> [(key: String, rows: [Row])] {
        guard let start = html.range(of: "<section data-run=\"\(run)\""),
              let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex) else { return [] }
        let section = String(html[start.upperBound..<end.lowerBound])
        return section.components(separatedBy: "<tbody data-component=\"").dropFirst().map { body in
            let attributes = body.prefix { $0 != ">" }.components(separatedBy: "\"")
            let key = attributes.count < 5 ? "" : [attributes[0], attributes[2], attributes[4]].map(unescape).joined(separator: "/")
            let rows = body.components(separatedBy: "<tr class=\"").dropFirst().compactMap { tr -> Row? in
                let kind = String(tr.prefix { $0 != "\"" })
                guard kind != "group" else { return nil }
                let cells = tr.components(separatedBy: "<td").dropFirst().map { cell in
                    unescape(String(cell.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }))
                }
                return Row(kind: kind, label: cells.first ?? "", numbers: cells.dropFirst().map { Double($0) ?? .nan })
            }
            return (key, rows)
        }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    static func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    @Test("lazy-container and composite-cell with --types: each group's types, demangled, with the types view's numbers, adding up; lazy-list without: a note")
    func typesInTheReport() throws {
        let folder = try TemporaryFolder()
        let typed = try ProfctlProcess.record(["lazy-container", "composite-cell", "--types", "--instances", "30"], in: folder)
        let plain = try ProfctlProcess.record(["lazy-list", "--instances", "30"], in: folder)
        let ids = (typed.stdout + plain.stdout).split(whereSeparator: \.isNewline).map(String.init)
        try #require(ids.count == 3, "\(typed.stdout)\(plain.stdout)")
        let page = try ProfctlProcess.run(["report", "--format", "html", "-o", "r.html"], in: folder.url)
        #expect(page.status == 0, "\(page.stderr)")
        let html = try String(contentsOf: folder.url.appendingPathComponent("r.html"), encoding: .utf8)

        for run in ids.prefix(2) {
            let types = try ProfctlProcess.run(["types", "--run", run, "--format", "json"], in: folder.url)
            #expect(types.status == 0, "\(types.stderr)")
            let view = try Self.json(types.stdout)
            var expected: [String: [[String: Any]]] = [:]
            for row in view {
                let key = ["component", "strategy", "kind"].map { row[$0] as? String ?? "" }.joined(separator: "/")
                expected[key, default: []].append(row)
            }
            let shown = Self.groups(html, run: run)
            #expect(Set(shown.map(\.key)) == Set(expected.keys), "\(shown.map(\.key))")
            #expect(shown.count == expected.count)
            for (key, rows) in shown {
                let viewRows = expected[key] ?? []
                let byName = Dictionary(viewRows.map { ($0["type"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
                let instances = Self.number(viewRows.first?["instances"])
                var sum = [Double](repeating: 0, count: 4)
                for row in rows where row.kind == "type" || row.kind == "remainder" {
                    // Names as the runtime's demangler gives them, module-qualified: never mangled, never an address.
                    #expect(!row.label.contains("$s") && !row.label.contains(" at $") && !row.label.isEmpty, "\(key): \(row.label)")
                    #expect(row.label.first == "(" || row.label.contains("."), "\(key): \(row.label)")
                    let v = try #require(byName[row.label], "\(key): \(row.label) is not in the types view")
                    let expected = [Self.number(v["objects"]), Self.number(v["objects_per_instance"]),
                                    Self.number(v["requested_bytes"]), Self.number(v["requested_bytes"]) / instances,
                                    Self.number(v["live_objects"]), Self.number(v["live_requested_bytes"])]
                    // Counts exactly; per-instance figures to the two decimals the page shows.
                    #expect(row.numbers.count == 6 && zip(row.numbers, expected).allSatisfy { abs($0 - $1) <= 0.005 + 1e-9 }
                            && [0, 2, 4, 5].allSatisfy { row.numbers[$0] == expected[$0] }, "\(key): \(row.label) \(row.numbers) \(expected)")
                }
                // Folded types are the smallest by bytes, and everything sums to the view's total.
                let typesShown = rows.filter { $0.kind == "type" }.count, others = rows.first { $0.kind == "other" }
                let nonRemainder = viewRows.filter { ($0["type"] as? String) != "(not a Swift object)" }
                #expect(typesShown == min(nonRemainder.count, 8), "\(key)")
                #expect((others != nil) == (nonRemainder.count > 8), "\(key)")
                for row in viewRows {
                    for (i, column) in ["objects", "requested_bytes", "live_objects", "live_requested_bytes"].enumerated() {
                        sum[i] += Self.number(row[column])
                    }
                }
                let total = rows.first { $0.kind == "total" } ?? rows[0]
                #expect(rows.count == 1 || rows.last?.kind == "total", "\(key)")
                #expect([total.numbers[0], total.numbers[2], total.numbers[4], total.numbers[5]] == sum, "\(key)")
                if let others {
                    #expect(others.label == "\(nonRemainder.count - 8) other types", "\(key)")
                    let shownBytes = rows.filter { $0.kind == "type" }.map { $0.numbers[2] }
                    let smallest = nonRemainder.map { Self.number($0["requested_bytes"]) }.sorted(by: >).dropFirst(8)
                    #expect(shownBytes.min() ?? 0 >= smallest.max() ?? 0, "\(key)")
                }
            }
        }
        // composite-cell's template cell has more than eight types: the page folds them.
        #expect(Self.groups(html, run: ids[1]).contains { $0.rows.contains { $0.kind == "other" } })

        // lazy-container: the report's order (Label eager first), LazyContainer named in full,
        // and the eager Label's total per instance is the report's bytes per instance.
        let lazyContainer = Self.groups(html, run: ids[0])
        #expect(lazyContainer.first?.key == "Label/eager/create", "\(lazyContainer.map(\.key))")
        #expect(html.contains("Every type: <code>profctl types --run \(ids[0])</code>"))
        let lazy = lazyContainer.first { $0.key == "Label/lazy/create" }?.rows ?? []
        #expect(lazy.map(\.label) == ["ProfilerPrimitives.LazyContainer<ProfilerCatalog.Label, ProfilerCatalog.View>"], "\(lazy)")
        #expect(lazy.first?.numbers.prefix(2) == [30, 1])
        let reportJSON = try ProfctlProcess.run(["report", "--run", ids[0], "--format", "json"], in: folder.url).stdout
        let report = try #require(try JSONSerialization.jsonObject(with: Data(reportJSON.utf8)) as? [String: Any])["rows"] as? [[String: Any]] ?? []
        let eagerLabel = report.first { $0["component"] as? String == "Label" && $0["strategy"] as? String == "eager" }
        let eagerTotal = lazyContainer.first?.rows.last
        #expect(eagerTotal?.kind == "total" && eagerTotal?.numbers[3] == Self.number(eagerLabel?["bytes_per_instance"]), "\(String(describing: eagerTotal))")

        // lazy-list, recorded without --types: no table, a note with the command that records them.
        let listStart = try #require(html.range(of: "<section data-run=\"\(ids[2])\""))
        let list = String(html[listStart.lowerBound...]).components(separatedBy: "</section>").first ?? ""
        #expect(list.contains("<code>profctl record lazy-list --types</code>"), "\(list.suffix(600))")
        #expect(!list.contains("<table class=\"types\""))
    }

    @Test("report --format html --store shows a pushed run's types as the file's page does", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func typesFromTheStore() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "composite-cell", "--types", "--instances", "30"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["lazy-list", "--instances", "30"], db: "local.sqlite", in: folder)
        let pushed = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let fromFile = try ProfctlProcess.run(["report", "--format", "html", "--db", "local.sqlite"], in: folder.url)
        let fromStore = try ProfctlProcess.run(["report", "--format", "html", "--store", server.url], in: folder.url)
        #expect(fromFile.status == 0 && fromStore.status == 0, "\(fromFile.stderr)\(fromStore.stderr)")
        /// The types part of each section: the tables and the notes, without the rest of the page.
        func typesParts(_ html: String) -> [String] {
            html.components(separatedBy: "<h3>Which Swift types fill the bytes</h3>").dropFirst().map {
                $0.components(separatedBy: "</section>").first ?? ""
            }
        }
        let file = typesParts(fromFile.stdout), store = typesParts(fromStore.stdout)
        #expect(file.count == 3 && file.filter { $0.contains("<table class=\"types\">") }.count == 2, "\(file.count)")
        #expect(store == file)
    }
}
