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

    @Test("a user's own program's --help describes its own scenarios and parameters, none of profctl's built-in ones")
    func usersProgramHelp() throws {
        let folder = try TemporaryFolder()
        let help = try ProfctlProcess.run(executable: OwnComponentsExample.binary, ["--help"], in: folder.url)
        #expect(help.status == 0, "\(help.stderr)")
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Sets the scenario's main count: instances."), "\(help.stdout)")
        #expect(text.contains("--set configurations=10"), "\(help.stdout)")
        #expect(text.contains("profile: an avatar and a profile card, four ways"), "\(help.stdout)")
        #expect(text.contains("strategies: eager, lazy, lazy-realized, cached"), "\(help.stdout)")
        #expect(text.contains("configurations (--set configurations=...)") && text.contains("default 1000"), "\(help.stdout)")
        // What profctl's built-in scenarios take is not this program's to offer.
        for name in ["rows", "cells", "placements", "panels", "screens", "viewport"] {
            #expect(!text.contains(name), "the help names \(name): \(help.stdout)")
        }
    }
}
