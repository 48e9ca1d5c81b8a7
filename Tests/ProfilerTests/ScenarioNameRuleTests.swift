import Foundation
import Testing
import ProfilerScenarios
import Profiler

/// One rule for the name a scenario records under, for users' programs as for scenario
/// files: a built-in's name, or one that looks like it, is refused before anything is written.
@Suite("scenario name rule")
struct ScenarioNameRuleTests {
    final class Badge { var text = "new" }

    func comparison(_ name: String) -> ComponentComparison {
        ComponentComparison(name: name, summary: "a user's comparison", components: [.component("Badge") { Badge() }], instances: 2)
    }

    @Test("a user's program cannot record under a built-in scenario's name, nor a look-alike; nothing is written")
    func programsRefused() throws {
        for name in ["image-cache", "Image-Cache", "lazy_container", "lazy-c0ntainer", "1azy-1ist", "identity.",
                     "lazy-c\u{043E}ntainer", "latest", "", String(repeating: "a", count: 65)] {
            let temp = try TemporaryDatabase()
            #expect(throws: ScenarioError.self, "\(name)") {
                _ = try ScenarioRunner.record(comparison(name), database: temp.path, options: RecordOptions(instances: 2))
            }
            #expect(!FileManager.default.fileExists(atPath: temp.path) || (try? Data(contentsOf: URL(fileURLWithPath: temp.path)).count) == 0,
                    "\(name) wrote \(temp.path)")
        }
    }

    @Test("the refusal says why: the built-in it looks like, or the character that is not ASCII with its code point")
    func messages() {
        #expect(RunNames.problem("image-cache")?.contains("is the built-in scenario's name") == true)
        #expect(RunNames.problem("Image_Cache")?.contains("looks like the built-in scenario 'image-cache'") == true)
        let cyrillic = RunNames.problem("lazy-c\u{043E}ntainer") ?? ""
        #expect(cyrillic.contains("U+043E") && cyrillic.contains("ASCII"), "\(cyrillic)")
        #expect(RunNames.problem("profile") == nil && RunNames.problem("badge.v2_final-1") == nil)
    }

    @Test("a built-in scenario still records under its own name, and a user's own name records")
    func ownNamesRecord() throws {
        let temp = try TemporaryDatabase()
        try RunNames.requireOwn("image-cache", for: try BuiltInScenarios.named("image-cache"))
        _ = try ScenarioRunner.record(comparison("badges"), database: temp.path, options: RecordOptions(instances: 2))
    }
}
