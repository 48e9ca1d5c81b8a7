import Foundation
import Testing
import Profiler
import ProfilerCatalog
import ProfilerChecks
import ProfilerComparison
import ProfilerHooks
import ProfilerModel
import ProfilerOutputs
import ProfilerPrimitives
import ProfilerQueries
import ProfilerRecording
import ProfilerScenarios
import ProfilerSites
import ProfilerStore
import ProfilerSupport

@Suite("Scenario files under fuzzing")
struct ScenarioFileFuzzTests {
    static let seeds = [
        "scenario: lazy-list\nname: feed\nrepeats: 2\nstrategies: [eager, lazy]\nparameters:\n  rows: 40\n  scroll: [down, up]\n",
        "scenario: image-cache\nparameters:\n  placements: 7\n  icon_side: 36\n",
        "scenario: identity\nstrategies:\n  - stable-id\n  - branch\nparameters:\n  items: 10\n  toggles: 3\n",
        "scenario: composite-cell\nparameters: {cells: 5, reuses: 5, scale: 2}\n",
    ]

    static let fragments = [
        "", " ", "\n", ":", "- ", "[", "]", "{", "}", "#", "&a", "*a", "!!int", "'", "\"", "\t", "---", "...", "|",
        "-1", "0", "99999999999999999999999", "1e400", "nan", "~", "null", "true", "rows", "viewport", "lazy",
        "scenario", "parameters", "strategies: [", "é", "🙂", "\u{0}", "\\u0000", "  - ", "scroll: [sideways]",
        // What the bounded reader refuses: control characters, a byte order mark mid-file,
        // anchors and aliases, tags, YAML 1.1's base-60, octal and hex numbers.
        "\u{1}", "\u{7F}", "\u{1B}", "\u{FEFF}", "\u{85}", "&x ", "*x", "? ", "!!str ", "!!int ", "1:30", "010", "0x1F",
        "1_000", "'2'", "\"2\"", "# & * ", "\"#\"",
    ]

    static func mutate(_ text: String, _ rng: inout SeededRandom) -> String {
        var chars = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = chars.isEmpty ? 0 : Int.random(in: 0...chars.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !chars.isEmpty && position < chars.count:
                chars.removeSubrange(position..<min(chars.count, position + Int.random(in: 1...6, using: &rng)))
            case 1:
                chars.insert(contentsOf: fragments.randomElement(using: &rng) ?? "", at: position)
            case 2:
                // A number out of any range, or of the wrong kind.
                chars.insert(contentsOf: [" -7", " 1000000000", " 3.5", " x"].randomElement(using: &rng) ?? "", at: position)
            default:
                // Swap two lines.
                var lines = String(chars).split(separator: "\n", omittingEmptySubsequences: false)
                if lines.count > 2 {
                    let a = Int.random(in: 0..<lines.count, using: &rng), b = Int.random(in: 0..<lines.count, using: &rng)
                    lines.swapAt(a, b)
                }
                chars = Array(lines.joined(separator: "\n"))
            }
        }
        return String(chars)
    }

    @Test("thousands of malformed documents: never a crash or a hang, always valid or an error with line and column",
          .timeLimit(.minutes(2)))
    func fuzz() throws {
        var rng = SeededRandom(seed: 20261122)
        var errors = 0, valid = 0
        for round in 0..<4000 {
            let seed = Self.seeds[round % Self.seeds.count]
            let text = Self.mutate(seed, &rng)
            do {
                let file = try ScenarioFile.parse(text, path: "fuzz.yaml")
                // Whatever parses must also resolve: nothing invalid slips through.
                _ = try file.scenario.resolve(file.options)
                valid += 1
            } catch let error as ScenarioFileError {
                errors += 1
                #expect(error.line >= 1 && error.column >= 1, "round \(round): \(error)\n\(text)")
                #expect(!error.message.isEmpty)
            } catch {
                Issue.record("round \(round): an error without a position: \(error)\n\(text)")
            }
        }
        #expect(errors > 1000)
        #expect(valid > 0)
    }

    static let budgetSeeds = [
        "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: 800\n",
        "budgets:\n  - scenario: image-cache\n    component: Icon\n    strategy: weak-cache\n    metric: hit_ratio\n    min: 0.5\n",
        "budgets: [{scenario: identity, metric: allocations_per_instance, max: 3}]\n",
    ]

    @Test("mutated budgets files: never a crash or a hang, always budgets or an error with line and column",
          .timeLimit(.minutes(2)))
    func fuzzBudgets() throws {
        var rng = SeededRandom(seed: 20261123)
        var errors = 0, valid = 0
        for round in 0..<2000 {
            let text = Self.mutate(Self.budgetSeeds[round % Self.budgetSeeds.count], &rng)
            do {
                let budgets = try Budget.parse(text, path: "fuzz.yaml")
                // A number that reads is a plain decimal.
                #expect(budgets.allSatisfy { ($0.max ?? 0).isFinite && ($0.min ?? 0).isFinite }, "round \(round)\n\(text)")
                valid += 1
            } catch let error as ScenarioFileError {
                errors += 1
                #expect(error.line >= 1 && error.column >= 1, "round \(round): \(error)\n\(text)")
                #expect(error.description.count < 1_000, "round \(round): a message that long quotes too much")
            } catch {
                Issue.record("round \(round): an error without a position: \(error)\n\(text)")
            }
        }
        #expect(errors > 500)
        #expect(valid > 0)
    }
}
