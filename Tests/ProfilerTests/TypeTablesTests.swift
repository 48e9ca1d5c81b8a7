import Foundation
import Testing
import ProfilerModel
import ProfilerOutputs

/// The HTML report's tables of types: the largest types of a group, the rest in one row,
/// the remainder, and a total that adds up, whatever is left out.
@Suite("Types in the HTML report")
struct TypeTablesTests {
    static func row(_ type: String, objects: Int, bytes: Int, live: Int = 0, kind: String = "create",
                    strategy: String = "eager", instances: Int = 10) -> TypeRow {
        TypeRow(component: "Cell", strategy: strategy, kind: kind, type: type, isRemainder: type == ObjectTypeCounts.remainder,
                instances: instances,
                counts: TypeCounts(objects: objects, requestedBytes: bytes, liveObjects: live, liveRequestedBytes: live * 16))
    }

    static let rows = [
        row("Small", objects: 30, bytes: 480),
        row("Big", objects: 10, bytes: 4000, live: 10),
        row(ObjectTypeCounts.remainder, objects: 5, bytes: 200),
        row("Middle", objects: 20, bytes: 1000, live: 3),
        row("Tie.B", objects: 1, bytes: 100),
        row("Tie.A", objects: 1, bytes: 100),
        row("Swift._ContiguousArrayStorage<Swift.Int>", objects: 10, bytes: 960, kind: "realize"),
    ]

    @Test("a group keeps its largest types by bytes, folds the rest into one row, and its total is every row's")
    func folding() throws {
        let groups = TypeGroup.groups(Self.rows, top: 2)
        #expect(groups.map(\.kind) == ["create", "realize"])
        let create = try #require(groups.first)
        #expect(create.top.map(\.type) == ["Big", "Middle"])
        #expect(create.otherTypes == 3)
        #expect(create.others == TypeCounts(objects: 32, requestedBytes: 680))
        #expect(create.remainder == TypeCounts(objects: 5, requestedBytes: 200))
        #expect(create.total == TypeCounts(objects: 67, requestedBytes: 5880, liveObjects: 13, liveRequestedBytes: 208))
        #expect(create.perInstance(create.total.requestedBytes) == 588)
        // Equal bytes and objects: by name, so the page is the same every time.
        #expect(TypeGroup.groups(Self.rows, top: 10).first?.top.map(\.type) == ["Big", "Middle", "Small", "Tie.A", "Tie.B"])
        #expect(groups.last?.remainder == nil && groups.last?.otherTypes == 0)
    }

    @Test("the page shows each group's rows, escaped, with the other types, the remainder and a total that adds up")
    func page() {
        let html = TypeTables.render(.recorded(Self.rows, everyType: "profctl types --run r1"))
        #expect(html.contains("<th colspan=\"7\" scope=\"rowgroup\">Cell · eager · create <span class=\"meta\">10 instances</span>"))
        #expect(html.contains("<td>Swift._ContiguousArrayStorage&lt;Swift.Int&gt;</td>"), "\(html)")
        #expect(html.contains("<tr class=\"remainder\"><td>(not a Swift object)</td><td class=\"n\">5</td><td class=\"n\">0.5</td>"))
        #expect(html.contains("<tr class=\"total\"><td>all allocations</td><td class=\"n\">67</td><td class=\"n\">6.7</td><td class=\"n\">5880</td><td class=\"n\">588</td><td class=\"n\">13</td><td class=\"n\">208</td></tr>"), "\(html)")
        // A group of one row is its own total.
        let realize = html.components(separatedBy: "data-kind=\"realize\"").last ?? ""
        #expect(!realize.contains("all allocations"), "\(realize)")
        #expect(!html.contains("<tr class=\"other\">"), "eight types fit: nothing folded")
        #expect(html.contains("Every type: <code>profctl types --run r1</code>"))
    }

    @Test("a run recorded without types: a note with the command that records them, no table")
    func notRecorded() {
        let html = TypeTables.render(.notRecorded(howToRecord: "profctl record lazy-list --types"))
        #expect(html.contains("recorded without types"))
        #expect(html.contains("<code>profctl record lazy-list --types</code>"))
        #expect(!html.contains("<table"))
    }
}
