import Foundation
import Testing

/// The DocC catalog's examples (Sources/Profiler/Exports/Profiler.docc) are SwiftPM snippets
/// (Snippets/*.swift): one source each, compiled as executables by the same build as these
/// tests, and run here with what the articles say they print.
enum DocCCatalog {
    static let root = DocumentedExamplesTests.root
    static let catalog = root.appendingPathComponent("Sources/Profiler/Exports/Profiler.docc")
    static let snippets = root.appendingPathComponent("Snippets")

    static func articles() throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        return try Dictionary(uniqueKeysWithValues: names.map {
            ($0, try String(contentsOf: catalog.appendingPathComponent($0), encoding: .utf8))
        })
    }

    static func snippetNames() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: snippets.path)
            .filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(".swift".count)) })
    }

    /// The snippets an article shows: `@Snippet(path: "profctl/Snippets/NAME")`.
    static func shown(in article: String) -> [String] {
        article.components(separatedBy: "@Snippet(path: \"profctl/Snippets/").dropFirst().compactMap {
            $0.split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    /// A snippet's executable, built next to profctl.
    static func binary(_ name: String) -> URL { ProfctlProcess.binary.deletingLastPathComponent().appendingPathComponent(name) }

    static func run(_ name: String, _ arguments: [String] = [], in folder: URL) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(executable: binary(name), arguments, in: folder)
    }

    /// The integers of a line such as "class: 40 bytes".
    static func numbers(in text: String) -> [Int] {
        text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }
}

@Suite("DocC catalog: every article shows a snippet, and every snippet compiles and prints what its article says")
struct DocCSnippetsTests {
    @Test("the five articles each show a snippet that exists, and every snippet is shown")
    func articlesShowSnippets() throws {
        let articles = try DocCCatalog.articles()
        #expect(Set(articles.keys) == ["Profiler.md", "MeasuringYourOwnComponents.md", "RegionsAndWindows.md", "TypesAndARC.md",
                                       "LimitsInTests.md"])
        let snippets = try DocCCatalog.snippetNames()
        var shown: Set<String> = []
        for (name, text) in articles {
            let names = DocCCatalog.shown(in: text)
            #expect(!names.isEmpty, "\(name) shows no snippet")
            for snippet in names {
                #expect(snippets.contains(snippet), "\(name) shows \(snippet), which is not in Snippets/")
                shown.insert(snippet)
            }
        }
        #expect(shown == snippets, "snippets no article shows: \(snippets.subtracting(shown).sorted())")
    }

    @Test("every snippet is compiled by the build, and imports the measuring API only (not the stand-in UIKit)")
    func compiled() throws {
        for name in try DocCCatalog.snippetNames() {
            #expect(FileManager.default.isExecutableFile(atPath: DocCCatalog.binary(name).path), "\(name) was not built")
            let source = try String(contentsOf: DocCCatalog.snippets.appendingPathComponent(name + ".swift"), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
            #expect(Set(imports).isSubset(of: ["Profiler", "ProfilerCLI", "Foundation", "Dispatch"]), "\(name) imports \(imports)")
        }
    }

    @Test("measuring a closure: an avatar keeps its object and its pixel buffer")
    func measureAClosure() throws {
        let folder = try TemporaryFolder()
        let result = try DocCCatalog.run("MeasureAClosure", in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = DocCCatalog.numbers(in: result.stdout)
        #expect(figures.count == 2 && figures[0] > 32 * 32 && figures[1] >= 2, "\(result.stdout)")
    }

    @Test("comparing your own components records a run that profctl reports: two components, four strategies")
    func compareOwnComponents() throws {
        let folder = try TemporaryFolder()
        let record = try DocCCatalog.run("CompareOwnComponents", ["--db", "gallery.sqlite", "--instances", "20", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(UUID(uuidString: record.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(record.stdout)")
        let report = try ProfctlProcess.run(["report", "--db", "gallery.sqlite", "--format", "json"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["rows"] as? [[String: Any]])
        let pairs = Set(rows.compactMap { row in (row["component"] as? String).flatMap { c in (row["strategy"] as? String).map { c + "/" + $0 } } })
        #expect(pairs.count == 8 && pairs.contains("Caption/lazy") && pairs.contains("Thumbnail/cached"), "\(pairs.sorted())")
    }

    @Test("regions nest (the outer includes the inner), and a window counts the threads of a fan-out")
    func regionsAndWindows() throws {
        let folder = try TemporaryFolder()
        let result = try DocCCatalog.run("RegionsAndWindows", in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(result.stdout)")
        let nested = DocCCatalog.numbers(in: lines[0])
        // An [Int] of n elements keeps 32 bytes of storage header and 8 n of elements.
        #expect(nested == [32 + 8 * 100, 32 + 8 * 100 + 32 + 8 * 200], "\(lines[0])")
        #expect(DocCCatalog.numbers(in: lines[1]).first.map { $0 >= 4 * (32 + 8 * 1000) } == true, "\(lines[1])")
    }

    @Test("types: a class instance is its header and fields, a struct nothing, an array its storage")
    func typesAndLayout() throws {
        let folder = try TemporaryFolder()
        let result = try DocCCatalog.run("TypesAndLayout", in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let figures = result.stdout.split(separator: "\n").map { DocCCatalog.numbers(in: String($0)) }
        #expect(figures == [[16 + 3 * 8], [0], [10, 32 + 10 * 24]], "\(result.stdout)")
    }

    @Test("a limit in a test: the row is within its budget")
    func limitInATest() throws {
        let folder = try TemporaryFolder()
        let result = try DocCCatalog.run("LimitInATest", in: folder.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("within its limit of 64"), "\(result.stdout)")
    }
}
