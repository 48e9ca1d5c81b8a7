import Foundation
import Testing

/// The public API of profctl's library products, held to a checked-in list
/// (Tests/Fixtures/public-api.txt) that changes only on purpose, as API-breakage tools do:
/// `import Profiler` is the measuring API docs/api.md documents, and everything profctl's
/// own targets share is `package`. The list is read from the symbol graphs of the modules
/// this build made (`swift-symbolgraph-extract`, part of the toolchain).
@Suite("The public API")
struct PublicAPITests {
    static let listPath = "Tests/Fixtures/public-api.txt"
    static let updateVariable = "PROFCTL_UPDATE_PUBLIC_API"

    /// What a user can import: the layers `import Profiler` re-exports (read from its
    /// umbrella file, so a new layer is covered without editing this test), the record
    /// command line, the stand-in UIKit catalog and the test traits (ProfilerTesting).
    static func libraryModules() throws -> [String] {
        let umbrella = try String(contentsOf: DocumentedExamplesTests.root.appendingPathComponent("Sources/Profiler/Exports/Profiler.swift"),
                                  encoding: .utf8)
        let layers = umbrella.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("@_exported import ") else { return nil }
            return String(line.dropFirst("@_exported import ".count))
        }
        return layers + ["ProfilerCLI", "ProfilerCatalog", "ProfilerTesting"]
    }

    static let extractor: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/swift-symbolgraph-extract"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    /// One line per public declaration (`Module | Type.member(_:) | declaration`) and per
    /// conformance (`Module | Type | : Protocol`), sorted.
    static func surface() throws -> [String] {
        let folder = try TemporaryFolder()
        let modules = try libraryModules()
        let tool = try #require(extractor, "swift-symbolgraph-extract is not on PATH: it ships with the Swift toolchain")
        let failures = Failures(), output = folder.url
        DispatchQueue.concurrentPerform(iterations: modules.count) { index in
            do {
                let result = try ProfctlProcess.run(
                    executable: URL(fileURLWithPath: tool),
                    ["-module-name", modules[index], "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public",
                     "-skip-synthesized-members", "-output-dir", output.path] + BuiltModules.searchArguments,
                    in: output)
                if result.status != 0 { failures.add("\(modules[index]): \(result.stderr)") }
            } catch {
                failures.add("\(modules[index]): \(error)")
            }
        }
        try #require(failures.all.isEmpty, "swift-symbolgraph-extract failed: \(failures.all.joined(separator: "\n"))")
        var lines: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where file.hasSuffix(".symbols.json") {
            let module = String(file.dropLast(".symbols.json".count))
            let data = try Data(contentsOf: folder.url.appendingPathComponent(file))
            let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let symbols = graph["symbols"] as? [[String: Any]] ?? []
            var paths: [String: String] = [:]
            for symbol in symbols {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                if let id = (symbol["identifier"] as? [String: Any])?["precise"] as? String { paths[id] = path }
                let declaration = (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                    .compactMap { $0["spelling"] as? String }.joined()
                lines.append("\(module) | \(path) | \(declaration)")
            }
            for relation in graph["relationships"] as? [[String: Any]] ?? [] where relation["kind"] as? String == "conformsTo" {
                guard let source = relation["source"] as? String, let type = paths[source] else { continue }
                let target = relation["target"] as? String ?? ""
                let name = paths[target] ?? relation["targetFallback"] as? String ?? target
                lines.append("\(module) | \(type) | : \(name)")
            }
        }
        return lines.sorted()
    }

    @Test("the public API is the checked-in list: a change to it is on purpose",
          .enabled(if: TestEnvironment.isCI || extractor != nil, "needs swift-symbolgraph-extract (part of the Swift toolchain) on PATH"))
    func surfaceIsTheList() throws {
        let current = try Self.surface()
        let file = DocumentedExamplesTests.root.appendingPathComponent(Self.listPath)
        let text = current.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment[Self.updateVariable] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let listed = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let expected = listed.split(separator: "\n").map(String.init)
        let added = current.filter { !expected.contains($0) }, removed = expected.filter { !current.contains($0) }
        #expect(added.isEmpty && removed.isEmpty, """
            The public API differs from \(Self.listPath): \(added.count) declarations added, \(removed.count) removed.
            \((added.map { "+ " + $0 } + removed.map { "- " + $0 }).joined(separator: "\n"))
            Public is only what docs/api.md documents for users; what profctl's own targets share is `package`.
            If the change is on purpose (and docs/api.md says so), write the new list and commit it with the change:
                swift build --build-tests && \(Self.updateVariable)=1 swift test --disable-xctest --skip-build --filter PublicAPITests
            """)
    }

    /// Declarations docs/api.md names in prose (its code blocks are type-checked as they are).
    static let prose = """
        import Profiler
        import ProfilerCLI

        class MyView {
            init(reservingSubviews count: Int) {}
            func add(_ child: MyView) {}
            func removeFromParent() {}
        }
        final class Avatar { init(initials: String) {} }
        final class Row {}

        func documentedNames() async throws {
            let comparison = ComponentComparison(name: "n", summary: "s", components: [.component("A") { Avatar(initials: "A") }],
                                                 strategies: [.eager, .lazy], instances: 10, configurations: 2)
            let _: any Scenario = comparison
            let _: [StandardStrategy] = StandardStrategy.allCases
            let _: ComparedComponent = .component("B") { [1, 2, 3] }
            let window = try await AllocationWindow.measure { () async -> Int in 1 }
            let _: (Int, Allocations, UInt64, UInt64) = (window.value, window.allocations, window.durationNanoseconds, window.startNanoseconds)
            let a = window.allocations
            _ = (a.allocations, a.frees, a.requestedBytes, a.usableBytes, a.netLiveBytes, a.netLiveUsableBytes)
            _ = AllocationScope.excluded { 1 }
            let typed: TypedMeasured<Int> = try await AllocationWindow.measureTypes { () async -> Int in 1 }
            let _: (Measured<Int>, [ObjectTypeCounts]) = (typed.measured, typed.types)
            _ = typed.types.map { ($0.name, $0.objects, $0.bytes, $0.liveObjects, $0.liveBytes, $0.isRemainder) }
            let _: any Error.Type = ARCCounting.Unavailable.self
            let _: [any Error.Type] = [StoreError.self, CheckError.self, SiteError.self, UnknownNameError.self, ScenarioError.self,
                                       AllocationScopeError.self]
            let _: String = FlagAdvice.message(for: AllocationScopeError.hooksInactive)
            let _: [ParameterSpec] = [ParameterSpec("mode", "a mode", .choices(["a", "b"]), default: .string("a"))]
            let container: LazyContainer<Avatar, NoParent> = LazyContainer { Avatar(initials: "L") }
            _ = (container.isRealized, container.component)
        }

        struct KeepingScenario: Scenario {
            let name = "keeping"
            let summary = "keeps its cache on purpose"
            let baselineStrategy = "eager"
            let strategies = ["eager"]
            let countParameter = "rows"
            let parameters = [ParameterSpec("rows", "rows", .integer(1...10), default: .int(2))]
            let keptOnPurpose = [KeptBytes(strategy: "eager", .everything, because: "a cache")]
            func plannedInstances(_ options: ResolvedOptions) -> Int? { 1 }
            func run(_ context: ScenarioContext) throws {
                _ = (context.options.int("rows"), context.options.string("rows"), context.options.script("rows"))
                try context.step("build", strategy: "eager", component: "Row") {}
                try context.metric("m", 1, strategy: "eager")
            }
        }

        """

    @Test("what docs/api.md and Examples/ use type-checks outside the package, where `package` is not visible")
    func documentedUseIsPublic() throws {
        let root = DocumentedExamplesTests.root
        let folder = try TemporaryFolder()
        let document = try String(contentsOf: root.appendingPathComponent("docs/api.md"), encoding: .utf8)
        // Declarations go beside the prose file; statements make up main.swift. Skipped: the
        // Package.swift excerpt, blocks with `...`, and Examples/OwnComponents' main (checked below as it is).
        var declarations = Self.prose, statements = "import Profiler\nimport ProfilerCLI\n"
        for block in document.components(separatedBy: "```swift\n").dropFirst() {
            let code = block.components(separatedBy: "```").first ?? ""
            if code.hasPrefix("// Package.swift") || code.contains("...") || code.hasPrefix("import ") { continue }
            let first = code.split(separator: "\n").first.map(String.init) ?? ""
            if ["struct ", "final class ", "class ", "enum ", "extension ", "protocol "].contains(where: first.hasPrefix) {
                declarations += code + "\n"
            } else {
                statements += code + "\n"
            }
        }
        let documented = [folder.url.appendingPathComponent("main.swift"), folder.url.appendingPathComponent("Documented.swift")]
        try Data(statements.utf8).write(to: documented[0])
        try Data(declarations.utf8).write(to: documented[1])
        let programs = [
            "docs/api.md": documented,
            "Examples/OwnComponents": [root.appendingPathComponent("Examples/OwnComponents/Sources/OwnComponents/main.swift")],
            "Examples/BadgeProfiler": try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Examples/BadgeProfiler/Sources/BadgeProfiler").path)
                .filter { $0.hasSuffix(".swift") }.sorted()
                .map { root.appendingPathComponent("Examples/BadgeProfiler/Sources/BadgeProfiler/\($0)") },
        ]
        for (name, files) in programs.sorted(by: { $0.key < $1.key }) {
            let checked = try BuiltModules.typecheck(files, in: folder.url)
            #expect(checked.ok, """
                \(name) does not type-check against the public API (a declaration it uses is `package` or internal): \
                make that declaration public, or change the documentation.
                \(checked.errors)
                """)
        }
    }
}

/// Errors collected from concurrent extractions.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
