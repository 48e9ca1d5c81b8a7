import Foundation
import Profiler
import Testing

/// The library's messages say what is wrong in the library's terms: a library user (an
/// example package, their own executable) has no `--db` or `--baseline` to pass. The CLI
/// adds its flags (Sources/ProfilerCLI/FlagAdvice.swift).
@Suite("library messages name no CLI flags")
struct LibraryMessageTests {
    static let librarySources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Profiler")

    /// `--word` in code that is not a CLI flag, each with why: arguments to other tools,
    /// CSS custom properties, a developer's command, and the leak check's name as CI shows it.
    static let allowed: [String: Set<String>] = [
        "Recording/Symbolizer.swift": ["--obj", "--inlines", "--functions", "--no-demangle"],  // llvm-symbolizer's arguments
        "Recording/CIContext.swift": ["--abbrev-ref"],  // git's argument
        "Model/ReportViewsDoc.swift": ["--disable-xctest", "--filter"],  // how a developer regenerates docs/schema.md
        "Checks/LeakOutput.swift": ["--leaks"],  // the JUnit suite and GitHub annotation title: "profctl check --leaks"
    ]

    /// Every `--flag` outside comments in one file's lines; CSS custom properties
    /// (`--name:` and `var(--name)`) are not flags.
    static func flags(in source: String) -> [(line: Int, flag: String)] {
        guard let flag = try? NSRegularExpression(pattern: "(?<![-A-Za-z0-9(])--[a-z][a-z0-9-]*(?![a-z0-9-]*:)") else { return [] }
        var found: [(Int, String)] = []
        for (index, line) in source.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            let range = NSRange(line.startIndex..., in: line)
            for match in flag.matches(in: line, range: range) {
                guard let text = Range(match.range, in: line).map({ String(line[$0]) }) else { continue }
                found.append((index + 1, text))
            }
        }
        return found
    }

    @Test("the scan finds a flag in a message and skips comments and CSS")
    func scannerWorks() {
        let sample = """
            /// Pass `--db` on the command line.
            // raise --timeout
            let css = ":root { --bg: #fff; } body { color: var(--ink); }"
            let message = "point --db at a database"
            """
        #expect(Self.flags(in: sample).map(\.flag) == ["--db"])
        #expect(Self.flags(in: sample).map(\.line) == [4])
    }

    @Test("no string in Sources/Profiler names a flag, apart from the listed non-flags")
    func noFlagsInLibrary() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.librarySources, includingPropertiesForKeys: nil))
        var offenders: [String] = []
        var scanned = 0
        for case let url as URL in files where url.pathExtension == "swift" {
            scanned += 1
            let relative = String(url.path.dropFirst(Self.librarySources.path.count + 1))
            let source = try String(contentsOf: url, encoding: .utf8)
            for (line, flag) in Self.flags(in: source) where !(Self.allowed[relative]?.contains(flag) ?? false) {
                offenders.append("\(relative):\(line): \(flag)")
            }
        }
        #expect(scanned > 50, "found \(scanned) files under \(Self.librarySources.path)")
        #expect(offenders.isEmpty, "library code names CLI flags; say it in the library's terms and let FlagAdvice add the flag:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("every store, check and site error describes itself without a flag")
    func errorDescriptions() {
        let store: [StoreError] = [
            .missingDatabase(path: "p.sqlite"), .emptyDatabase(path: "p.sqlite"), .notADatabase(path: "p.sqlite"),
            .notAFile(path: "p", kind: "a directory"), .foreignDatabase(path: "p.sqlite", reason: "tables"),
            .multipleStatements(sql: "SELECT 1; SELECT 2"), .truncatedDatabase(path: "p.sqlite", expected: 2, actual: 1),
            .schemaNewer(path: "p.sqlite", found: 9, known: 8), .needsMigration(path: "p.sqlite", found: 1, latest: 8),
            .checksumMismatch(path: "p.sqlite", version: 1, name: "m"), .runNotFound(path: "p.sqlite", run: "abc"),
            .noRuns(path: "p.sqlite"), .readOnlyViolation(sql: "DELETE FROM runs"), .queryTimedOut(seconds: 2),
            .damagedDatabase(path: "p.sqlite", detail: "database disk image is malformed"),
        ]
        let check: [CheckError] = [
            .baselineNotFound("label 'main' has no x run"), .environmentMismatch(["os: a vs b"]), .invalidBaseline("median:x"),
            .runNotComplete(role: "the run to check", run: "abc", scenario: "x", status: "aborted", reason: nil),
        ]
        let sites: [SiteError] = [.badDepth(0), .noSuchRun("abc"), .noSites(run: "abc"), .noSiteRuns(path: "p.sqlite")]
        let errors: [any Error] = store + check + sites
        for error in errors {
            let text = String(describing: error)
            #expect(!text.contains("--"), "\(text)")
            #expect(!text.isEmpty)
        }
        #expect(BaselineResolver.reservedLabelReason("previous").map { !$0.contains("--") } == true)
        #expect(RunNames.reservedClash("latest").map { !$0.contains("--") } == true)
    }
}
