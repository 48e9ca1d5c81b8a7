import Foundation
import Testing

/// Help as the binary prints it (CommandLineTests checks the text in-process; this checks
/// that profctl's entry point prints it): EXAMPLES last, a nested command's own examples.
@Suite("help through the binary")
struct HelpProcessTests {
    @Test("profctl --help, record --help and baseline set --help end with their own examples", arguments: [
        (["--help"], "profctl record lazy-container && profctl report"),
        (["record", "--help"], "profctl record"),
        (["baseline", "set", "--help"], "profctl baseline set main --run"),
    ])
    func examplesLast(arguments: [String], example: String) throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(arguments, in: folder.url)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        let examples = try #require(lines.firstIndex(of: "EXAMPLES:"), "\(result.stdout)")
        #expect(lines[(examples + 1)...].allSatisfy { $0.hasPrefix("  ") })
        #expect(lines[(examples + 1)...].contains { $0.contains(example) }, "\(result.stdout)")
        if arguments.first == "baseline" { #expect(!lines.contains { $0.contains("baseline list") }, "Set's examples, not Baseline's") }
    }
}
