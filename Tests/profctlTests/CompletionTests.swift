import Foundation
import ProfilerCLI
import Testing

/// `profctl record <TAB>` completes scenario names and scenario files, in a real bash
/// running the generated completion script.
@Suite("Shell completions")
struct CompletionTests {
    /// What bash offers for `profctl record WORD<TAB>` in `folder`.
    func complete(_ word: String, in folder: URL) throws -> [String] {
        let script = try ProfctlProcess.run(["--generate-completion-script", "bash"], in: folder)
        #expect(script.status == 0)
        let scriptFile = folder.appendingPathComponent("profctl.bash")
        try Data(script.stdout.utf8).write(to: scriptFile)
        let driver = """
            source \(scriptFile.path)
            COMP_WORDS=(\(ProfctlProcess.binary.path) record '\(word)')
            COMP_CWORD=2
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _profctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/bin/bash"), ["-c", driver], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func folderWithScenarioFiles() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let scenarios = folder.url.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for file in ["long-feed.yaml", "busy-room.yml", "notes.txt"] {
            try Data("scenario: lazy-list\n".utf8).write(to: scenarios.appendingPathComponent(file))
        }
        return folder
    }

    @Test("scenario names complete")
    func names() throws {
        let folder = try folderWithScenarioFiles()
        #expect(try Set(complete("lazy-", in: folder.url)) == ["lazy-container", "lazy-list"])
        let all = try complete("", in: folder.url)
        for name in ["lazy-container", "lazy-list", "composite-cell", "image-cache", "identity", "live-room", "scenarios/"] {
            #expect(all.contains(name), "\(name) in \(all)")
        }
    }

    @Test("scenario files complete, through their folder; other files do not")
    func files() throws {
        let folder = try folderWithScenarioFiles()
        #expect(try complete("scen", in: folder.url) == ["scenarios/"])
        #expect(try complete("scenarios/", in: folder.url) == ["scenarios/busy-room.yml", "scenarios/long-feed.yaml"])
    }

    @Test("a user's own executable completes its own scenario names")
    func candidates() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)/")
        #expect(ScenarioCompletion.candidates(names: ["badge", "banner"], prefix: "ba") == ["badge", "banner"])
        #expect(ScenarioCompletion.candidates(names: ["badge"], prefix: folder.path).isEmpty)
    }
}
