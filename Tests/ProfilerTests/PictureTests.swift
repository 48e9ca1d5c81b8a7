import Foundation
import Testing
@testable import ProfilerModel
@testable import ProfilerOutputs
@testable import ProfilerRecording

/// The HTML pages' pictures (issue 26): round ticks in one unit, tables that fit, icicles
/// that name frames in full and can be zoomed and searched.
@Suite("Pictures")
struct PictureTests {
    /// The tick labels of a chart, in order.
    func ticks(_ svg: String) -> [String] {
        svg.components(separatedBy: "class=\"axis tick\"").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last.flatMap { $0.split(separator: "<").first }.map(String.init)
        }
    }

    @Test("ticks are 1-2-5 round numbers with one unit per axis: 912 B was 0/228/456/684/912")
    func roundByteTicks() {
        let svg = SVGChart.bars(title: "Bytes per instance", unit: "bytes", categories: ["Label", "Button"],
                                series: [.init(name: "eager", values: [705, 912])])
        #expect(ticks(svg) == ["0", "200 B", "400 B", "600 B", "800 B", "1,000 B"])
        #expect(!svg.contains(">228<"))
    }

    @Test("bytes take one binary prefix per axis: no '6352' beside '12.7 k'")
    func oneUnitPerAxis() {
        let svg = SVGChart.lines(title: "Live bytes", unit: "bytes", steps: ["build", "release"],
                                 series: [.init(name: "eager", values: [12_700, 6352])])
        let labels = ticks(svg)
        #expect(labels.first == "0")
        #expect(labels.dropFirst().allSatisfy { $0.hasSuffix(" KiB") }, "\(labels)")
        #expect(labels.contains("12 KiB") || labels.contains("14 KiB") || labels.contains("15 KiB"), "\(labels)")
        let big = AxisScale(unit: "bytes", values: [0, 42_159_360])
        #expect(big.unitName == "MiB")
        #expect(big.ticks.map(big.label) == ["0", "10 MiB", "20 MiB", "30 MiB", "40 MiB", "50 MiB"])
    }

    @Test("step names stay inside the chart and apart: 'ProfileCard release' under the last point was cut to 'ProfileCard rele'")
    func stepNamesInside() throws {
        let svg = SVGChart.lines(title: "Live bytes after each step", unit: "bytes",
                                 steps: ["Avatar build", "Avatar release", "ProfileCard build", "ProfileCard release"],
                                 series: [SVGChart.Series(name: "eager", values: [219_200, 0, 241_600, 0])])
        let width = 720.0
        let labels = svg.components(separatedBy: "<text ").dropFirst().filter { $0.contains("class=\"axis\"") }
        #expect(labels.count == 4)
        var previousEnd = -Double.infinity
        for label in labels {
            let x = try #require(Double(label.components(separatedBy: "x=\"")[1].prefix { $0 != "\"" }))
            let anchor = label.components(separatedBy: "text-anchor=\"")[1].prefix { $0 != "\"" }
            let text = label.split(separator: ">", maxSplits: 1)[1].prefix { $0 != "<" }
            let extent = Double(text.count) * 6
            let (start, end) = anchor == "end" ? (x - extent, x) : anchor == "start" ? (x, x + extent) : (x - extent / 2, x + extent / 2)
            #expect(start >= 0 && end <= width, "\(text): \(start)...\(end) px, anchored \(anchor), in a \(Int(width)) px chart")
            // Nor over its neighbour ("ImageView buildImageView release" when the last was only anchored at its end).
            #expect(start > previousEnd, "\(text) starts at \(start) px, before the previous name ends (\(previousEnd) px)")
            previousEnd = end
        }
    }

    @Test("counts are whole numbers: 14 was ticked 3.50, 7, 10.50")
    func integerCounts() {
        let svg = SVGChart.bars(title: "Cache lookups", unit: "count", categories: ["no-cache"],
                                series: [.init(name: "misses", values: [14])])
        let labels = ticks(svg)
        #expect(labels.allSatisfy { !$0.contains(".") }, "\(labels)")
        #expect(labels == ["0", "5", "10", "15"])
        let few = AxisScale(unit: "count", values: [0, 2])
        #expect(few.ticks == [0, 1, 2])
    }

    @Test("log axes tick powers of ten (and 2, 5 over few decades): 8.41/70.71/594.60 before")
    func logTicks() {
        let svg = SVGChart.bars(title: "Allocations", unit: "count", categories: ["16-31", "1K-2K"],
                                series: [.init(name: "plain", values: [3, 600])], logScale: true)
        #expect(ticks(svg) == ["1", "10", "100", "1,000"])
        let narrow = AxisScale(unit: "count", values: [12, 80], logarithmic: true)
        #expect(narrow.ticks == [10, 20, 50, 100])
        let bytes = AxisScale(unit: "bytes", values: [3000, 10_000_000], logarithmic: true)
        #expect(bytes.unitName == "KiB")
        #expect(bytes.ticks.map(bytes.label) == ["1 KiB", "10 KiB", "100 KiB", "1,000 KiB", "10,000 KiB"])
    }

    @Test("negative values get round ticks below zero")
    func negativeTicks() {
        let scale = AxisScale(unit: "%", values: [-9.18, 94.44])
        #expect(scale.ticks.map(scale.label) == ["-50 %", "0", "50 %", "100 %"])
        let half = AxisScale(unit: "bytes", values: [0, 1400])
        #expect(half.ticks.map(half.label) == ["0", "0.5 KiB", "1.0 KiB", "1.5 KiB"])
        #expect(AxisScale.roundStep(228) == 500 && AxisScale.roundStep(200) == 200 && AxisScale.roundStep(0.03) == 0.05)
    }

    @Test("whatif's curves tick capacity at round powers of ten on a log axis: '5.5 KiB, 30.9 KiB, 994.1 KiB' were the points' own capacities")
    func curveTicks() throws {
        let capacities: [Double] = [5588, 31677, 179_573, 1_017_962, 5_770_633, 77_886_300]
        let svg = SVGChart.curves(title: "Hit ratio by capacity in bytes, log scale", xUnit: "bytes", unit: "%", xs: capacities,
                                  series: [.init(name: "lru", values: [0, 0.1, 1, 6, 31, 99.8])])
        let xLabels = svg.components(separatedBy: "class=\"axis xtick\"").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last.flatMap { $0.split(separator: "<").first }.map(String.init)
        }
        #expect(xLabels == ["1 KiB", "10 KiB", "100 KiB", "1,000 KiB", "10,000 KiB", "100,000 KiB"])
        #expect(!svg.contains(">5.5 KiB<") && !svg.contains(">994.1 KiB<"))
        // Each point sits where its capacity is on the log axis: 10 KiB and 100 KiB's ticks
        // bracket 31,677 B, and the points go left to right in capacity order.
        func numbers(_ attribute: String, after marker: String) -> [Double] {
            svg.components(separatedBy: marker).dropFirst().compactMap { part in
                part.components(separatedBy: "\(attribute)=\"").dropFirst().first?.split(separator: "\"").first.flatMap { Double($0) }
            }
        }
        // The x of each tick's label: the last `<text x=` before each xtick class.
        let tickXs = svg.components(separatedBy: "class=\"axis xtick\"").dropLast().compactMap { part in
            part.components(separatedBy: "<text x=\"").last?.split(separator: "\"").first.flatMap { Double($0) }
        }
        let pointXs = numbers("cx", after: "<circle")
        #expect(pointXs.count == capacities.count && pointXs == pointXs.sorted())
        #expect(tickXs.count == 6)
        let (tenKiB, hundredKiB) = (try #require(tickXs.dropFirst(1).first), try #require(tickXs.dropFirst(2).first))
        #expect(tenKiB < pointXs[1] && pointXs[1] < hundredKiB)
        #expect(svg.contains("data-xunit=\"bytes\"") && svg.contains("data-xlog=\"1\""))
    }

    @Test("a tooltip gives a value exactly, with its binary size beside")
    func exactValues() {
        #expect(AxisScale.exact(912_000, unit: "bytes") == "912,000 B (890.6 KiB)")
        #expect(AxisScale.exact(48, unit: "bytes") == "48 B")
        #expect(AxisScale.exact(14, unit: "count") == "14")
        #expect(AxisScale.exact(1_500_000, unit: "ns") == "1.50 ms")
    }

    @Test("tables wrap instead of scrolling: no 780 px page, no scroll box, headers break after underscores")
    func tablesFit() {
        let style = HTMLReport.style
        #expect(!style.contains("overflow-x: auto"))
        #expect(!style.contains("max-width: 780px"))
        #expect(!style.contains("white-space: nowrap; }\n        td.n"))
        let table = HTMLReport.table(ResultTable(columns: ["strategy", "retained_bytes_after_release"],
                                                 rows: [[.text("weak-cache"), .integer(0)]]))
        #expect(table.contains("<th class=\"n\" title=\"retained_bytes_after_release\">retained_<wbr>bytes_<wbr>after_<wbr>release</th>"))
        #expect(SiteIcicle.page([], stacks: [:], runID: "r", table: ResultTable(columns: ["a"], rows: [])).contains("max-width: 1200px"))
    }

    @Test("short names read Swift's grammar: private types, specializations, closures, merged functions")
    func shortNames() {
        #expect(SiteName.short("Yams.(Parser in _0F1A2B).parse() throws -> Yams.Node") == "Yams.Parser.parse")
        #expect(SiteName.short("generic specialization <Swift.Int> of Demo.Box.make<A>(A) -> Demo.Box<A>") == "Demo.Box.make<Swift.Int>")
        #expect(SiteName.short("closure #1 (Swift.Int) -> Swift.String in Demo.Label.init(text: Swift.String) -> Demo.Label")
                == "closure #1 in Demo.Label.init")
        #expect(SiteName.short("merged Demo.Label.init(text: Swift.String) -> Demo.Label") == "Demo.Label.init (merged)")
        #expect(SiteName.isMerged("merged Demo.Label.init() -> ()"))
        // What `swift demangle` makes of a merged specialization ($s4main3BoxC3getyyFAA5LabelC_Tg5Tm).
        #expect(SiteName.short("merged generic specialization <Catalog.ImageView> of Demo.Box.get() -> ()") == "Demo.Box.get (merged)")
        #expect(SiteName.short("ProfilerCatalog.Label.text.getter : Swift.String") == "ProfilerCatalog.Label.text.getter")
        #expect(SiteName.short("(extension in ProfilerPrimitives):ProfilerPrimitives.LazyContainer< where A: P>.ensure(in: B) throws -> A")
                == "ProfilerPrimitives.LazyContainer.ensure")
        #expect(SiteName.short("partial apply forwarder for closure #1 () -> () in Demo.run() -> ()") == "closure #1 in Demo.run (partial apply)")
        #expect(SiteName.short("reabstraction thunk helper from @callee_guaranteed () -> (@owned X) to @escaping () -> (@out X)")
                == "reabstraction thunk")
        #expect(SiteName.short("Demo.(unknown context at $7f00aa).Thing.make() -> ()") == "Demo.Thing.make")
    }

    /// A one-path tree for the icicle.
    func tree(_ names: [String], bytes: Int = 1000) -> SiteCallTree {
        let root = SiteCallTree()
        root.bytes = bytes
        root.allocations = 3
        var node = root
        for name in names {
            node = node.child(name)
            node.bytes = bytes
            node.allocations = 3
            node.location = "Parser.swift:12"
        }
        return root
    }

    @Test("an icicle box shows a private function's short name, not 'Yams.', and its full name on hover")
    func icicleNames() {
        let full = "Yams.(Parser in _0F1A2B).parse() throws -> Yams.Node"
        let svg = SiteIcicle.svg(title: "Doc / yams / create", root: tree([full]))
        #expect(svg.contains(">Yams.Parser.parse</text>"), "\(svg)")
        #expect(svg.contains("<title>\(SVGChart.escape(full)) (Parser.swift:12): 1,000 B, 3 allocations</title>"))
        #expect(!svg.contains(">Yams.</text>"))
    }

    @Test("a stack cut at --site-depth starts under a marked node, not mid-tree; a whole stack does not")
    func cutStacks() {
        let inner = SiteFrame(module: "/bin/demo", function: "Demo.Label.init() -> Demo.Label", file: "/src/Label.swift", line: 4)
        let measure = SiteFrame(module: "/bin/demo", function: "generic specialization <X> of static ProfilerHooks.AllocationScope.measure<A>() -> A")
        #expect(SiteFrame.userPath([inner], site: inner.function) == [SiteFrame.cutMarker, inner.function])
        #expect(SiteFrame.userPath([inner, measure], site: inner.function) == [inner.function])
        #expect(SiteFrame.userPath([.unknown], site: SiteFrame.unknown.function) == [SiteFrame.unknown.function])
        let svg = SiteIcicle.svg(title: "t", root: tree([SiteFrame.cutMarker, inner.function]))
        #expect(svg.contains("<g class=\"f cut\""))
        let merged = SiteIcicle.svg(title: "t", root: tree(["merged Demo.Label.init() -> Demo.Label"]))
        #expect(merged.contains("<g class=\"f merged\"") && merged.contains("Demo.Label.init (merged)"))
    }

    @Test("locations are right or absent: <stdin>, <compiler-generated> and a C unit with no line are no location")
    func locations() {
        #expect(SiteFrame.location(file: "<stdin>", line: 7) == "")
        #expect(SiteFrame.location(file: "/<compiler-generated>", line: 0) == "")
        #expect(SiteFrame.location(file: "crtstuff.c", line: 0) == "")
        #expect(SiteFrame.location(file: "/src/Sources/Image.swift", line: 18) == "Image.swift:18")
        #expect(SiteFrame.location(file: "/src/Sources/Image.swift", line: 0) == "Image.swift")
    }

    @Test("llvm-symbolizer's inlined frames: the outermost function with its own line, not the inlined code's file")
    func outermostInlinedFrame() {
        let output = "$s4Demo5InnerV3getSiyF\n/src/Inner.swift:40:5\n$s4Demo5OuterC3runyyF\n/src/Outer.swift:12:9\n\n??\n??:0:0\n\n"
        let answers = Symbolizer.answers(output)
        #expect(answers.count == 2)
        #expect(answers.first == Symbolizer.Answer(function: "$s4Demo5OuterC3runyyF", file: "/src/Outer.swift", line: 12))
        #expect(answers.last == Symbolizer.Answer(function: nil, file: nil, line: 0))
    }

    @Test("the icicle page zooms, searches and explains a box in one self-contained file")
    func interactiveIcicle() {
        let frame = SiteFrame(module: "/bin/demo", function: "Demo.Label.init() -> Demo.Label", file: "/src/Label.swift", line: 4)
        let row = SiteRow(component: "Label", strategy: "eager", kind: "create", site: frame.function, file: frame.file, line: 4,
                          stackID: 1, counts: { var c = SiteCounts(); c.allocations = 2; c.requestedBytes = 96; return c }())
        let page = SiteIcicle.page([row], stacks: [1: SiteStack(frames: [frame])], runID: "r", table: ResultTable(columns: ["a"], rows: []))
        #expect(page.contains("id=\"icicle-search\""))
        #expect(page.contains("<script>") && !page.contains("<script src"))
        #expect(page.contains("function zoom(") && page.contains("function search(") && page.contains("% of the chart"))
        #expect(page.contains("data-b=\"96\" data-a=\"2\""))
        #expect(page.contains("data-l=\"Label.swift:4\""))
        #expect(!page.contains("http://") || page.components(separatedBy: "http://").dropFirst().allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") })
    }
}
