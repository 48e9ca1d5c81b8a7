import Foundation
import Profiler
import Testing

/// Help texts that come from the scenarios' declarations.
@Suite("Help from declarations")
struct DeclaredHelpTests {
    @Test("record --help names every built-in scenario's count parameter for --instances")
    func instancesHelp() throws {
        let folder = try TemporaryFolder()
        let help = try ProfctlProcess.run(["record", "--help"], in: folder.url)
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for scenario in BuiltInScenarios.all {
            #expect(text.contains(scenario.countParameter), "--instances help lacks \(scenario.countParameter)")
        }
        #expect(text.contains("main count: instances, rows, cells, placements, items, panels or screens."))
    }
}
