import Foundation
import Testing

/// The library's layers (docs/api.md, "Layers") as the package declares them: read from
/// `swift package describe`, so a dependency added in Package.swift that breaks a rule
/// fails here, and the compiler enforces the rest (a module cannot use what it does not
/// depend on).
@Suite("Layers of the Profiler library")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Target name -> its direct target dependencies, from the package description.
    static func graph() throws -> [String: [String]] {
        // --ignore-lock: `swift test` holds the build folder's lock while the tests run.
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                            ["swift", "package", "--ignore-lock", "describe", "--type", "json"], in: root)
        try #require(result.status == 0, "swift package describe failed: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let targets = try #require(json?["targets"] as? [[String: Any]])
        var graph: [String: [String]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            // SwiftPM makes each snippet (Snippets/, the DocC examples) depend on every library
            // product, the catalog among them, whatever it imports; DocCSnippetsTests checks
            // that none imports more than Profiler and ProfilerCLI.
            if target["type"] as? String == "snippet" { continue }
            graph[name] = target["target_dependencies"] as? [String] ?? []
        }
        return graph
    }

    /// Everything `target` depends on, directly or through other targets.
    static func closure(of target: String, in graph: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], queue = graph[target] ?? []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += graph[next] ?? []
        }
        return seen
    }

    @Test("a renderer cannot run SQL, a query cannot return an output type, and only scenarios use the catalog")
    func rules() throws {
        let graph = try Self.graph()
        for layer in ["ProfilerSupport", "ProfilerHooks", "ProfilerModel", "ProfilerStore", "ProfilerRecording",
                      "ProfilerPrimitives", "ProfilerQueries", "ProfilerOutputs", "ProfilerSites", "ProfilerCatalog",
                      "ProfilerScenarios", "ProfilerComparison", "ProfilerChecks", "Profiler"] {
            #expect(graph[layer] != nil, "no target \(layer) in Package.swift")
        }
        let outputs = Self.closure(of: "ProfilerOutputs", in: graph)
        #expect(outputs.isDisjoint(with: ["ProfilerStore", "CSQLite", "ProfilerQueries", "ProfilerRecording"]),
                "ProfilerOutputs reaches the store: \(outputs.sorted())")
        for query in ["ProfilerQueries", "ProfilerSites"] {
            let queries = Self.closure(of: query, in: graph)
            #expect(!queries.contains("ProfilerOutputs"), "\(query) reaches the outputs: \(queries.sorted())")
        }
        // The plain values under both stay plain: no store, no SQLite, no hooks.
        #expect(Self.closure(of: "ProfilerModel", in: graph).isSubset(of: ["ProfilerSupport", "Yams", "CYaml"]))
        #expect(!Self.closure(of: "ProfilerStore", in: graph).contains("ProfilerRecording"))
        let catalogUsers = graph.filter { $0.value.contains("ProfilerCatalog") }.keys.sorted()
        #expect(catalogUsers == ["ProfilerScenarios", "ProfilerTests"], "\(catalogUsers)")
        #expect(!(graph["Profiler"] ?? []).contains("ProfilerCatalog"))
    }

    @Test("import Profiler brings the measuring API and not the stand-in UIKit catalog")
    func catalogIsNotExported() throws {
        // Type-checks three one-line programs against the modules this build made.
        let folder = try TemporaryFolder()
        func typechecks(_ source: String) throws -> (ok: Bool, errors: String) {
            let file = folder.url.appendingPathComponent("snippet.swift")
            try Data(source.utf8).write(to: file)
            return try BuiltModules.typecheck([file], in: folder.url)
        }
        let measuring = try typechecks("import Profiler\nlet _ = (LazyContainer<NoParent, NoParent>.self, ComponentComparison.self, AllocationScope.self)\n")
        #expect(measuring.ok, "the measuring API does not type-check: \(measuring.errors)")
        let catalog = try typechecks("import Profiler\nlet _ = Label.self\n")
        #expect(!catalog.ok && catalog.errors.contains("cannot find 'Label' in scope"), "\(catalog.errors)")
        let explicit = try typechecks("import Profiler\nimport ProfilerCatalog\nlet _ = (Label.self, View.self)\n")
        #expect(explicit.ok, "the catalog is not importable on its own: \(explicit.errors)")
    }
}
