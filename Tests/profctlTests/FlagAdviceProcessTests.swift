import Foundation
import Testing

/// The library's errors say what is wrong; profctl adds the flag that fixes it
/// (Sources/ProfilerCLI/FlagAdvice.swift), so CLI users keep the advice.
@Suite("profctl adds its flags to library errors")
struct FlagAdviceProcessTests {
    @Test("a missing database and a junk file: the library's words, then profctl's --db advice")
    func databaseAdvice() throws {
        let folder = try TemporaryFolder()
        let missing = try ProfctlProcess.run(["report", "--db", "nothing.sqlite"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no database at nothing.sqlite"), "\(missing.stderr)")
        #expect(missing.stderr.contains("profctl record lazy-container --db nothing.sqlite"), "\(missing.stderr)")

        let junk = folder.url.appendingPathComponent("junk.sqlite")
        try Data(String(repeating: "not a database ", count: 200).utf8).write(to: junk)
        let result = try ProfctlProcess.run(["runs", "--db", junk.path], in: folder.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("is not a SQLite database"), "\(result.stderr)")
        #expect(result.stderr.contains("or a new file. Point --db at one"), "\(result.stderr)")
    }
}
