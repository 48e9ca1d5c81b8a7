import Foundation
import Testing

/// The 20-line example of one's own components (Examples/OwnComponents): the root
/// package builds an identical copy (target own-components-example), which these tests
/// run as a user would and read back through the built profctl.
enum OwnComponentsExample {
    static let root = DocumentedExamplesTests.root
    static let source = "Examples/OwnComponents/Sources/OwnComponents/main.swift"
    static let copy = "Sources/own-components-example/main.swift"

    /// The built copy, next to profctl.
    static var binary: URL { ProfctlProcess.binary.deletingLastPathComponent().appendingPathComponent("own-components-example") }

    /// A folder holding `own-components`, the name the documentation gives the example's
    /// binary, linked to the built copy: put on PATH for the documented commands.
    static let pathFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("profctl-own-components-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("own-components"), withDestinationURL: binary)
        return folder
    }()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

@Suite("Examples/OwnComponents: one's own components in 20 lines")
struct OwnComponentsExampleTests {
    @Test("the example is at most 20 lines, and README.md and docs/api.md show exactly that code")
    func twentyLines() throws {
        let example = try OwnComponentsExample.text(OwnComponentsExample.source)
        let lines = example.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(example.hasSuffix("\n"))
        #expect(lines.count - 1 <= 20, "\(lines.count - 1) lines")
        #expect(example.contains("import Profiler") && example.contains("ProfilerMain.run"), "imports and main included")
        for document in ["README.md", "docs/api.md"] {
            let text = try OwnComponentsExample.text(document)
            #expect(text.contains("```swift\n" + example + "```\n"), "\(document) shows another version of the example")
        }
    }

    @Test("the root package compiles an identical copy of it")
    func identicalCopy() throws {
        #expect(try OwnComponentsExample.text(OwnComponentsExample.copy) == OwnComponentsExample.text(OwnComponentsExample.source))
        #expect(FileManager.default.isExecutableFile(atPath: OwnComponentsExample.binary.path))
    }

    @Test("recorded into a fresh database, profctl reports both classes under the four strategies")
    func recordsAndReports() throws {
        let folder = try TemporaryFolder()
        let record = try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                            ["--db", "components.sqlite", "--instances", "100", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(UUID(uuidString: record.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "the run id on stdout")
        let report = try ProfctlProcess.run(["report", "--db", "components.sqlite", "--format", "json"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let run = try #require(json["run"] as? [String: Any])
        #expect(run["scenario"] as? String == "profile")
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.map { "\($0["component"] ?? "")/\($0["strategy"] ?? "")" } == ["Avatar", "ProfileCard"].flatMap { c in
            ["eager", "lazy", "lazy-realized", "cached"].map { "\(c)/\($0)" }
        })
        for component in ["Avatar", "ProfileCard"] {
            func bytes(_ strategy: String) -> Double {
                rows.first { $0["component"] as? String == component && $0["strategy"] as? String == strategy }?["bytes_per_instance"] as? Double ?? -1
            }
            #expect(bytes("lazy") == 48, "the container alone")
            #expect(bytes("lazy-realized") == bytes("eager") + 48)
            #expect(bytes("eager") > 48)
            // Ten configurations (the default) among 100 instances: a tenth of a component each.
            #expect(bytes("cached") == (bytes("eager") / 10 * 100).rounded() / 100)
        }
    }

    @Test("an unknown strategy exits 64 naming the four, and records nothing")
    func unknownStrategy() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                            ["--db", "components.sqlite", "--strategies", "eager,sideways"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("no strategy 'sideways'; its strategies: eager, lazy, lazy-realized, cached"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("components.sqlite").path))
    }

    @Test("a misspelt option is named with the closest one, not taken for a scenario name")
    func misspeltOption() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(executable: OwnComponentsExample.binary,
                                            ["--db", "components.sqlite", "--instancez", "5"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unknown option '--instancez'. Did you mean '--instances'?"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'own-components-example --help'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("components.sqlite").path))
    }
}
