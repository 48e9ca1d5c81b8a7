import Foundation
import Testing

/// Inputs that cannot hurt, through the real binary: bad files are refused quickly with
/// their position, foreign databases are left alone, odd --db paths are named, and
/// reading leaves nothing behind.
@Suite("Inputs through profctl")
struct InputProcessTests {
    func sqlite3(_ database: URL, _ sql: String) throws -> String {
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), [database.path, sql],
                                            in: database.deletingLastPathComponent())
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The files in `folder` whose names start with `prefix`, sorted.
    func files(_ folder: URL, _ prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    @Test("a scenario file of nested aliases: exit 64 at once with its position, and no database created")
    func aliasBombRecord() throws {
        let folder = try TemporaryFolder()
        let bomb = folder.url.appendingPathComponent("bomb.yaml")
        var lines = ["scenario: lazy-list", "a: &a [x, x, x, x, x, x, x, x, x]"]
        let names = ["a", "b", "c", "d", "e", "f", "g"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
        }
        lines.append("? [*g, *g]\n: 1\n")
        try lines.joined(separator: "\n").write(to: bomb, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try ProfctlProcess.run(["record", bomb.path], in: folder.url)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(result.status == 64)
        #expect(result.stderr.contains("bomb.yaml:2:4:"), "\(result.stderr)")
        #expect(try files(folder.url, "profile.sqlite").isEmpty)
    }

    @Test("a budgets file with a control character: exit 64 with its line and column")
    func badBudgetsFile() throws {
        let folder = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        try "budgets:\n  - scenario: lazy-container\n    metric: bytes_per_instance\n    max: 8\u{0}00\n"
            .write(to: budgets, atomically: true, encoding: .utf8)
        let result = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("budgets.yaml:4:11:"), "\(result.stderr)")
    }

    @Test("record into another application's SQLite file is refused with exit 14 and leaves it byte for byte")
    func foreignDatabase() throws {
        let folder = try TemporaryFolder()
        let database = folder.url.appendingPathComponent("notes.sqlite")
        _ = try sqlite3(database, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');")
        let before = try Data(contentsOf: database)
        for arguments in [["record", "lazy-container", "--instances", "3", "--quiet"], ["migrate"], ["report"], ["runs"],
                          ["baseline", "set", "main"]] {
            let result = try ProfctlProcess.run(arguments + ["--db", database.path], in: folder.url)
            #expect(result.status == 14, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("notes.sqlite") && result.stderr.contains("another application"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: database) == before)
        #expect(try files(folder.url, "notes.sqlite") == ["notes.sqlite"])
        // Another application that marks its files is told apart by its application id alone.
        let marked = folder.url.appendingPathComponent("marked.sqlite")
        _ = try sqlite3(marked, "PRAGMA application_id = 1234; CREATE TABLE schema_migrations (version INTEGER);")
        let markedBefore = try Data(contentsOf: marked)
        let result = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet", "--db", marked.path], in: folder.url)
        #expect(result.status == 14, "\(result.stderr)")
        #expect(try Data(contentsOf: marked) == markedBefore)
    }

    @Test("profctl marks its databases with its application id, and stamps an older one when it writes to it")
    func applicationID() throws {
        let folder = try TemporaryFolder()
        let database = folder.url.appendingPathComponent("profile.sqlite")
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url).status == 0)
        #expect(try sqlite3(database, "PRAGMA application_id") == "1886547814")
        // A database from before the id: recognised by its schema_migrations table.
        _ = try sqlite3(database, "PRAGMA application_id = 0")
        #expect(try ProfctlProcess.run(["report"], in: folder.url).status == 0)
        #expect(try sqlite3(database, "PRAGMA application_id") == "0")
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url).status == 0)
        #expect(try sqlite3(database, "PRAGMA application_id") == "1886547814")
    }

    @Test("a directory, a FIFO or a symlink loop as --db is named for what it is", arguments: [
        ("directory", "is a directory"), ("fifo", "is a named pipe"), ("loop", "is a symbolic link loop"),
    ])
    func notAFile(kind: String, message: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("odd.sqlite")
        switch kind {
        case "directory": try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
        case "fifo": #expect(mkfifo(path.path, 0o600) == 0)
        default: try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: path.path)
        }
        for arguments in [["runs"], ["report"], ["query", "SELECT 1"], ["record", "lazy-container", "--instances", "3", "--quiet"]] {
            let start = Date()
            let result = try ProfctlProcess.run(arguments + ["--db", path.path], in: folder.url)
            #expect(Date().timeIntervalSince(start) < 5)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("odd.sqlite") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test("merge with a failing input leaves no output file behind")
    func mergeCleansUp() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet", "--db", "good.sqlite"],
                                       in: folder.url).status == 0)
        try Data(repeating: 0x41, count: 4096).write(to: folder.url.appendingPathComponent("bad.sqlite"))
        let result = try ProfctlProcess.run(["merge", "out.sqlite", "good.sqlite", "bad.sqlite"], in: folder.url)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(try files(folder.url, "out.sqlite").isEmpty)
        // Merging into an existing history keeps it; the inputs are left without -wal or -shm files.
        #expect(try ProfctlProcess.run(["merge", "out.sqlite", "good.sqlite"], in: folder.url).status == 0)
        #expect(try files(folder.url, "good.sqlite") == ["good.sqlite"])
        #expect(try ProfctlProcess.run(["merge", "out.sqlite", "bad.sqlite"], in: folder.url).status == 3)
        #expect(try files(folder.url, "out.sqlite") == ["out.sqlite"])
    }

    @Test("merge into a database named again through a symbolic link or ./ exits 64, not '0 runs added'")
    func mergeIntoItselfUnderAnotherName() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet", "--db", "a.sqlite"],
                                       in: folder.url).status == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.sqlite").path,
                                                   withDestinationPath: "a.sqlite")
        let before = try Data(contentsOf: folder.url.appendingPathComponent("a.sqlite"))
        for input in ["./link.sqlite", "./a.sqlite"] {
            let result = try ProfctlProcess.run(["merge", "a.sqlite", input], in: folder.url)
            #expect(result.status == 64, "\(input): \(result.stderr)")
            #expect(result.stderr.contains("\(input) is a.sqlite under another name (the same file)"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a.sqlite")) == before)
    }

    @Test("record of an existing file not named .yaml says scenario files end in .yaml, not 'unknown scenario'")
    func recordOfAFileNotNamedYAML() throws {
        let folder = try TemporaryFolder()
        try "kind: lazy-container\n".write(to: folder.url.appendingPathComponent("text.txt"), atomically: true, encoding: .utf8)
        let result = try ProfctlProcess.run(["record", "text.txt", "--db", "p.sqlite"], in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("text.txt is a file, not a built-in scenario; a scenario file's name ends in .yaml or .yml"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("p.sqlite").path))
        // A name that is neither a file nor a scenario still lists the scenarios.
        let unknown = try ProfctlProcess.run(["record", "nope.txt", "--db", "p.sqlite"], in: folder.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown scenario 'nope.txt'"), "\(unknown.stderr)")
    }

    @Test("query with several statements exits 64")
    func queryMultipleStatements() throws {
        let folder = try TemporaryFolder()
        _ = try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url)
        let result = try ProfctlProcess.run(["query", "SELECT 1; SELECT 2"], in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("one statement"), "\(result.stderr)")
    }

    @Test("runs --limit -1 says what is valid")
    func negativeLimit() throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(["runs", "--limit", "-1"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--limit must be at least 1 (got -1)"), "\(result.stderr)")
    }

    @Test("reading commands leave no -wal or -shm file behind")
    func readersLeaveNoFiles() throws {
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url).status == 0)
        }
        #expect(try ProfctlProcess.run(["baseline", "set", "main"], in: folder.url).status == 0)
        #expect(try files(folder.url, "profile.sqlite") == ["profile.sqlite"])
        let before = try Data(contentsOf: folder.url.appendingPathComponent("profile.sqlite"))
        let commands: [[String]] = [
            ["report"], ["runs"], ["query", "SELECT count(*) FROM runs"], ["check", "--baseline", "previous"],
            ["trend", "--scenario", "lazy-container", "--component", "Label", "--strategy", "eager", "--metric", "bytes_per_instance"],
            ["compare", "main", "latest"], ["export", "--run", "latest", "-o", "trace.json"], ["baseline", "list"],
            ["migrate", "--status"],
        ]
        for arguments in commands {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 0 || (arguments[0] == "check" && result.status == 2), "\(arguments): \(result.stderr)")
            #expect(try files(folder.url, "profile.sqlite") == ["profile.sqlite"], "\(arguments)")
        }
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("profile.sqlite")) == before)
    }

    @Test("baseline set and rm leave an empty file untouched (exit 10) and create no database (exit 1, as report)")
    func baselineNeedsADatabase() throws {
        let folder = try TemporaryFolder()
        let empty = folder.url.appendingPathComponent("y.sqlite")
        try Data().write(to: empty)
        for arguments in [["baseline", "set", "main", "--db", "y.sqlite"], ["baseline", "rm", "main", "--db", "y.sqlite"]] {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 10, "\(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: empty).isEmpty, "\(arguments)")
            #expect(try files(folder.url, "y.sqlite") == ["y.sqlite"], "\(arguments)")
        }
        let report = try ProfctlProcess.run(["report"], in: folder.url)
        for arguments in [["baseline", "rm", "main"], ["baseline", "set", "main"]] {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == report.status && result.status != 0, "\(arguments): \(result.stderr)")
            #expect(try files(folder.url, "profile.sqlite").isEmpty, "\(arguments)")
        }
    }

    @Test("small inputs: an empty query, --run, --scenario or --baseline exit 64; a missing file has no position; +2 and reserved names refused")
    func smallInputs() throws {
        let folder = try TemporaryFolder()
        #expect(try ProfctlProcess.run(["record", "lazy-container", "--instances", "3", "--quiet"], in: folder.url).status == 0)
        for arguments in [["query", ""], ["query", " ; "], ["report", "--run", ""], ["report", "--scenario", ""],
                          ["check", "--baseline", ""], ["check", "--baseline", "previous", "--run", ""]] {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("empty"), "\(arguments): \(result.stderr)")
        }
        let missing = try ProfctlProcess.run(["record", "nowhere.yaml"], in: folder.url)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("nowhere.yaml: cannot read the scenario file: no such file") && !missing.stderr.contains(":0:0"),
                "\(missing.stderr)")
        let plus = folder.url.appendingPathComponent("plus.yaml")
        try "scenario: lazy-list\nrepeats: +2\n".write(to: plus, atomically: true, encoding: .utf8)
        let signed = try ProfctlProcess.run(["record", plus.path, "--quiet"], in: folder.url)
        #expect(signed.status == 64 && signed.stderr.contains("plus.yaml:2:10:") && signed.stderr.contains("no + sign"), "\(signed.stderr)")
        for name in ["latest", "previous", "median"] {
            let file = folder.url.appendingPathComponent("\(name).yaml")
            try "scenario: lazy-list\nname: \(name)\n".write(to: file, atomically: true, encoding: .utf8)
            let result = try ProfctlProcess.run(["record", file.path, "--quiet"], in: folder.url)
            #expect(result.status == 64 && result.stderr.contains("is reserved"), "\(name): \(result.stderr)")
        }
    }

    @Test("a SQLite file with a user_version and no tables is another application's (14), not a newer schema (8)")
    func userVersionWithoutTables() throws {
        let folder = try TemporaryFolder()
        let other = folder.url.appendingPathComponent("other.sqlite")
        _ = try sqlite3(other, "PRAGMA user_version = 5")
        let before = try Data(contentsOf: other)
        for arguments in [["report", "--db", other.path], ["record", "lazy-container", "--instances", "3", "--quiet", "--db", other.path]] {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 14, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("user_version is 5"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: other) == before)
    }
}
