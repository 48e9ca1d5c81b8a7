import Foundation
import Profiler
import ProfilerPostgres
import Testing

/// Command-line and input defects a new user met (issue 22), each through the real binary:
/// an empty path, a symbolic link as -o, unlike runs compared by `sites --diff`, `sites`
/// without --scenario and -o, messages that pointed at the wrong flag or said too little,
/// scenario files that were refused or reported one mistake of several, and the run's
/// recorded compiler and parameters.
@Suite("Newcomer inputs through profctl")
struct NewcomerInputProcessTests {
    func run(_ arguments: [String], in folder: TemporaryFolder) throws -> ProfctlProcess.Result {
        try ProfctlProcess.run(arguments, in: folder.url)
    }

    /// Run ids, oldest first.
    func runIDs(_ db: String = "profile.sqlite", in folder: TemporaryFolder) throws -> [String] {
        let store = try ProfileStore.openForReading(path: folder.url.appendingPathComponent(db).path)
        return try store.rows("SELECT run_id FROM runs ORDER BY started_at, run_key").compactMap { $0.first?.string }
    }

    func path(_ name: String, in folder: TemporaryFolder) -> String { folder.url.appendingPathComponent(name).path }

    // MARK: 1. An empty path

    @Test("merge with an empty output or input path (an unset $OUT): exit 64, nothing merged")
    func mergeEmptyPath() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "in.sqlite", in: folder)
        let emptyOutput = try run(["merge", "", "in.sqlite"], in: folder)
        #expect(emptyOutput.status == 64, "\(emptyOutput.stderr)")
        #expect(emptyOutput.stderr.contains("empty"), "\(emptyOutput.stderr)")
        #expect(!emptyOutput.stderr.contains("runs added"), "\(emptyOutput.stderr)")
        let emptyInput = try run(["merge", "out.sqlite", "in.sqlite", ""], in: folder)
        #expect(emptyInput.status == 64, "\(emptyInput.stderr)")
        #expect(emptyInput.stderr.contains("input 2 is an empty path"), "\(emptyInput.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("out.sqlite", in: folder)))
    }

    // MARK: 2. -o through a symbolic link

    @Test("report -o and export -o write through a symbolic link: the link stays, its file gets the output")
    func outputThroughLink() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let manager = FileManager.default
        try manager.createDirectory(atPath: path("reports", in: folder), withIntermediateDirectories: true)
        for (command, extra) in [("report", ["--format", "json"]), ("export", [String]())] {
            let target = path("reports/\(command).out", in: folder), link = path("\(command)-latest", in: folder)
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            try manager.createSymbolicLink(atPath: link, withDestinationPath: "reports/\(command).out")
            let result = try run([command] + extra + ["-o", link], in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try manager.destinationOfSymbolicLink(atPath: link) == "reports/\(command).out", "\(command) replaced the link")
            let written = try String(contentsOfFile: target, encoding: .utf8)
            #expect(written.count > 20 && written != "old", "\(command): \(written.prefix(80))")
        }
    }

    @Test("-o a symbolic link that loops or leads nowhere: exit 64, the link left as it was")
    func outputBrokenLink() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: path("loop-a", in: folder), withDestinationPath: "loop-b")
        try manager.createSymbolicLink(atPath: path("loop-b", in: folder), withDestinationPath: "loop-a")
        try manager.createSymbolicLink(atPath: path("dangling", in: folder), withDestinationPath: "missing/file.html")
        for link in ["loop-a", "dangling"] {
            for command in ["report", "export", "sites"] {
                let result = try run([command, "-o", link], in: folder)
                #expect(result.status == 64, "\(command) -o \(link): \(result.stderr)")
                #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
                let attributes = try manager.attributesOfItem(atPath: path(link, in: folder))
                #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "\(command) replaced \(link)")
            }
        }
    }

    // MARK: 3. sites --diff follows check's rule

    @Test("sites --diff of two workloads (instances 40 against 20): exit 6 as check, unless --allow-param-mismatch")
    func sitesDiffUnlikeWorkloads() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--sites", "--instances", "40"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--sites", "--instances", "20"], in: folder)
        let ids = try runIDs(in: folder)
        try #require(ids.count == 2)
        let check = try run(["check", "--run", ids[1], "--baseline", ids[0]], in: folder)
        #expect(check.status == 6, "\(check.stderr)")
        let diff = try run(["sites", "--diff", ids[0], ids[1]], in: folder)
        #expect(diff.status == 6, "\(diff.stderr)")
        #expect(diff.stderr.contains("instances 40"), "\(diff.stderr)")
        #expect(!diff.stderr.contains("changed"), "\(diff.stderr)")
        #expect(diff.stdout.isEmpty)
        // The message is check's: what differs first, then the flag; no Swift API named.
        for result in [check, diff] {
            #expect(result.stderr.contains("pass --allow-param-mismatch"), "\(result.stderr)")
            #expect(!result.stderr.contains("CheckRequest"), "\(result.stderr)")
        }
        let allowed = try run(["sites", "--diff", ids[0], ids[1], "--allow-param-mismatch"], in: folder)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("changed"), "\(allowed.stderr)")
        #expect(allowed.stderr.contains("parameters differ"), "\(allowed.stderr)")
        // Alike runs still compare.
        try ProfctlProcess.record(["lazy-container", "--sites", "--instances", "20"], in: folder)
        let alike = try runIDs(in: folder)
        #expect(try run(["sites", "--diff", alike[1], alike[2]], in: folder).status == 0)
        let stray = try run(["sites", "--allow-param-mismatch"], in: folder)
        #expect(stray.status == 64, "\(stray.stderr)")
    }

    // MARK: 4. sites --scenario and -o

    @Test("sites --scenario picks that scenario's newest --sites run; a misspelt one exits 64 with the names; -o writes a file")
    func sitesScenarioAndOutput() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--sites", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["image-cache", "--sites"], in: folder)
        try ProfctlProcess.record(["lazy-list"], in: folder)
        let newest = try run(["sites", "--format", "csv"], in: folder)
        #expect(newest.status == 0, "\(newest.stderr)")
        #expect(!newest.stdout.contains("Label"), "the default is the newest --sites run, image-cache's")
        let chosen = try run(["sites", "--scenario", "lazy-container", "--format", "csv"], in: folder)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("Label"), "\(chosen.stdout.prefix(300))")
        let typo = try run(["sites", "--scenario", "lazy-containr"], in: folder)
        #expect(typo.status == 64, "\(typo.stderr)")
        #expect(typo.stderr.contains("lazy-container"), "\(typo.stderr)")
        let without = try run(["sites", "--scenario", "lazy-list"], in: folder)
        #expect(without.status == 1, "\(without.stderr)")
        #expect(without.stderr.contains("no lazy-list run recorded with allocation sites"), "\(without.stderr)")
        #expect(without.stderr.contains("profctl record --sites lazy-list"), "\(without.stderr)")
        let ids = try runIDs(in: folder)
        let otherScenario = try run(["sites", "--scenario", "lazy-container", "--run", ids[1]], in: folder)
        #expect(otherScenario.status == 1, "\(otherScenario.stderr)")
        let written = try run(["sites", "--scenario", "lazy-container", "--format", "html", "-o", "sites.html"], in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        let page = try String(contentsOfFile: path("sites.html", in: folder), encoding: .utf8)
        #expect(page.contains("<svg") && page.contains("Label"))
        let database = try run(["sites", "-o", "profile.sqlite"], in: folder)
        #expect(database.status == 64, "\(database.stderr)")
    }

    // MARK: 5. Messages

    @Test("merge of a file that is no database advises on its arguments, not on a --db it does not have")
    func mergeAdvice() throws {
        let folder = try TemporaryFolder()
        try Data("not a database at all, just text".utf8).write(to: URL(fileURLWithPath: path("notes.txt", in: folder)))
        let result = try run(["merge", "out.sqlite", "notes.txt"], in: folder)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(!result.stderr.contains("--db"), "\(result.stderr)")
        #expect(result.stderr.contains("Name profctl databases only"), "\(result.stderr)")
    }

    @Test("sites of a run recorded without them: the advice to record with --sites is given once")
    func siteAdviceOnce() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let one = try run(["sites", "--run", "latest"], in: folder)
        #expect(one.status == 1, "\(one.stderr)")
        let none = try run(["sites"], in: folder)
        #expect(none.status == 1, "\(none.stderr)")
        for result in [one, none] {
            #expect(result.stderr.components(separatedBy: "record").count - 1 == 2, "advice given more than once: \(result.stderr)")
            #expect(result.stderr.contains("profctl record --sites"), "\(result.stderr)")
        }
    }

    @Test("query with a syntax error or an unknown column: exit 64 with SQLite's words")
    func querySyntaxError() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        for (sql, words) in [("SELCT 1", "syntax error"), ("SELECT no_such_column FROM runs", "no such column")] {
            let result = try run(["query", sql], in: folder)
            #expect(result.status == 64, "\(sql): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
        }
        #expect(try run(["query", "SELECT count(*) FROM runs"], in: folder).status == 0)
    }

    @Test("a misspelt command followed by --help (or after help): exit 64 with the closest name")
    func unknownCommandHelp() throws {
        let folder = try TemporaryFolder()
        for arguments in [["reprot", "--help"], ["reprot", "-h"], ["help", "reprot"], ["baseline", "st", "--help"]] {
            let result = try run(arguments, in: folder)
            #expect(result.status == 64, "\(arguments): \(result.stdout.prefix(200)) \(result.stderr)")
            #expect(result.stderr.contains("Did you mean"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        for arguments in [["report", "--help"], ["help", "report"], ["baseline", "set", "--help"], ["--help"]] {
            let result = try run(arguments, in: folder)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("EXAMPLES:"), "\(arguments)")
        }
    }

    // MARK: 6. Scenario files

    @Test("a scenario file that starts with a UTF-8 byte order mark is read")
    func scenarioFileWithBOM() throws {
        let folder = try TemporaryFolder()
        let file = URL(fileURLWithPath: path("feed.yaml", in: folder))
        try Data([0xEF, 0xBB, 0xBF] + Array("scenario: lazy-list\nname: feed-bom\nparameters:\n  rows: 20\n".utf8)).write(to: file)
        let result = try run(["record", "feed.yaml", "--quiet"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try run(["report", "--scenario", "feed-bom"], in: folder)
        #expect(report.status == 0, "\(report.stderr)")
    }

    @Test("an empty scenario: lists the scenario kinds")
    func emptyScenarioKind() throws {
        let folder = try TemporaryFolder()
        try "scenario:\nname: x\n".write(toFile: path("empty.yaml", in: folder), atomically: true, encoding: .utf8)
        let result = try run(["record", "empty.yaml"], in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("empty.yaml:1:"), "\(result.stderr)")
        for kind in ["lazy-container", "image-cache", "lazy-list", "composite-cell", "identity", "live-room"] {
            #expect(result.stderr.contains(kind), "\(kind) missing: \(result.stderr)")
        }
    }

    @Test("a scenario file with several mistakes reports each at its line and column, and records nothing")
    func everyMistake() throws {
        let folder = try TemporaryFolder()
        let text = """
            scenario: lazy-list
            repeats: 0
            colour: blue
            strategies: [eager, lazzy]
            parameters:
              rows: many
              viewprt: 3

            """
        try text.write(toFile: path("many.yaml", in: folder), atomically: true, encoding: .utf8)
        let result = try run(["record", "many.yaml"], in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        for position in ["many.yaml:2:", "many.yaml:3:", "many.yaml:4:21:", "many.yaml:6:", "many.yaml:7:"] {
            #expect(result.stderr.contains(position), "\(position) missing: \(result.stderr)")
        }
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("many.yaml:") }
        #expect(lines.count == 5, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("profile.sqlite", in: folder)))
    }

    @Test("a scenario file with more mistakes than are listed: the first ones, and a count of the rest")
    func manyMistakesBounded() throws {
        let folder = try TemporaryFolder()
        let strategies = (1...60).map { "s\($0)" }.joined(separator: ", ")
        try "scenario: lazy-list\nstrategies: [\(strategies)]\n".write(toFile: path("lots.yaml", in: folder), atomically: true, encoding: .utf8)
        let result = try run(["record", "lots.yaml"], in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        let listed = result.stderr.split(separator: "\n").filter { $0.contains("unknown strategy") }
        #expect(listed.count == ScenarioFileError.maxListed, "\(result.stderr)")
        #expect(result.stderr.contains("and \(60 - ScenarioFileError.maxListed) more mistakes"), "\(result.stderr)")
    }

    // MARK: 7. What a run records

    @Test("swift_version holds the compiler's patch version; the JSON report's parameters are an object")
    func versionAndParameters() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "7"], in: folder)
        let store = try ProfileStore.openForReading(path: path("profile.sqlite", in: folder))
        let version = try #require(try store.scalar("SELECT swift_version FROM runs")?.string)
        #expect(version == RunEnvironment.compilerVersion)
        #expect(version.split(separator: ".").count == 3, "\(version)")
        let report = try run(["report", "--format", "json"], in: folder)
        #expect(report.status == 0, "\(report.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        let runObject = try #require(object?["run"] as? [String: Any])
        let parameters = try #require(runObject["parameters"] as? [String: Any], "\(runObject["parameters"] ?? "none")")
        #expect(parameters["instances"] as? Int == 7)
    }

    @Test("a baseline recorded before the patch version was (swift_version 6.3) compares with a 6.3.x run; another minor does not")
    func minorOnlyBaseline() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let ids = try runIDs(in: folder)
        let minor = RunEnvironment.compilerVersion.split(separator: ".").prefix(2).joined(separator: ".")
        let other = minor == "6.0" ? "5.9" : "6.0"
        for (recorded, expectedMismatch) in [(minor, false), (other, true)] {
            let store = try SQLiteConnection(path: path("profile.sqlite", in: folder), mode: .readWrite)
            try store.run("UPDATE runs SET swift_version = ? WHERE run_id = ?", [.text(recorded), .text(ids[0])])
            let check = try run(["check", "--run", ids[1], "--baseline", ids[0]], in: folder)
            #expect((check.status == 6) == expectedMismatch, "\(recorded): \(check.status) \(check.stderr)")
        }
    }
}

/// A push cut off after it committed some runs must not say "Nothing was written".
@Suite("push cut off mid-way", .serialized)
struct PushCutOffTests {
    @Test("the connection dies on the second run: exit 20, the first run in the store and the message says so", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func cutOffAfterOneRun() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        try ProfctlProcess.record(["image-cache"], db: "local.sqlite", in: folder)
        let store = try server.connect()
        try PostgresMigrator().migrate(store)
        // Runs are pushed oldest first: lazy-container commits, then image-cache's backend dies.
        try store.execute("""
            CREATE FUNCTION vanish_on_second() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.scenario = 'image-cache' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$;
            CREATE TRIGGER vanish_on_second BEFORE INSERT ON runs FOR EACH ROW EXECUTE FUNCTION vanish_on_second();
            """)
        let result = try PostgresPushTests.push("local.sqlite", to: server.url, in: folder)
        #expect(result.status == 20, "\(result.stderr)")
        #expect(try PostgresPushTests.count("runs", in: store) == 1)
        #expect(!result.stderr.contains("Nothing was written"), "\(result.stderr)")
        #expect(result.stderr.contains("1 run pushed before this is in the store"), "\(result.stderr)")
    }
}

@Suite("query --store input mistakes", .serialized)
struct StoreQueryMistakeTests {
    @Test("query --store with a syntax error or an unknown column: exit 64, as on the file", .enabled(if: TestEnvironment.postgres, TestEnvironment.postgresMissing))
    func storeSyntaxError() throws {
        guard let server = try PostgresTestDatabase.make() else { return }
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], db: "local.sqlite", in: folder)
        #expect(try PostgresPushTests.push("local.sqlite", to: server.url, in: folder).status == 0)
        // A statement that starts with no reading keyword (SELCT) is refused before it is sent.
        for sql in ["SELECT no_such_column FROM runs", "SELECT 1 FROM no_such_view", "SELECT FROM WHERE"] {
            let result = try ProfctlProcess.run(["query", "--store", server.url, sql], in: folder.url)
            #expect(result.status == 64, "\(sql): \(result.stderr)")
            #expect(result.stderr.contains("the SQL statement is not valid"), "\(result.stderr)")
        }
    }
}

@Suite("Scenario file words")
struct ScenarioFileWordTests {
    @Test("an empty name says it is empty, not that it is a list or a mapping")
    func emptyName() throws {
        #expect(throws: ScenarioFileError(path: "f.yaml", line: 2, column: 7, message: "name is empty; give a word")) {
            _ = try ScenarioFile.parse("scenario: lazy-list\nname: \"\"\n", path: "f.yaml")
        }
    }
}
