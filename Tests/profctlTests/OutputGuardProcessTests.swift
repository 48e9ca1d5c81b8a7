import Foundation
import Testing

/// Command lines that used to report success while losing data: `-o` onto a database
/// replaced it with the report, `--db ""` recorded into SQLite's temporary database
/// (deleted on close), `--strategies ""` recorded an empty run as complete.
@Suite("profctl refuses command lines that would lose data")
struct OutputGuardProcessTests {
    /// A database holding one small run, and its bytes.
    func recorded(_ folder: URL) throws -> (path: String, bytes: Data) {
        let record = try ProfctlProcess.run(["record", "lazy-container", "--instances", "5", "--db", "p.sqlite", "--quiet"], in: folder)
        #expect(record.status == 0, "\(record.stderr)")
        let path = folder.appendingPathComponent("p.sqlite").path
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("report and export -o onto a SQLite database: exit 64 and the database unchanged", arguments: [
        ["report", "--db", "p.sqlite", "--format", "html", "-o", "p.sqlite"],
        ["export", "--db", "p.sqlite", "-o", "p.sqlite"],
        ["report", "--db", "p.sqlite", "--output", "other.sqlite"],
    ])
    func outputOntoDatabase(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let db = try recorded(folder.url)
        try db.bytes.write(to: folder.url.appendingPathComponent("other.sqlite"))
        let result = try ProfctlProcess.run(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("is a SQLite database: profctl does not overwrite a database"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == db.bytes)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("other.sqlite")) == db.bytes)
    }

    @Test("-o into a folder that does not exist names the folder (it was a Foundation error dump)")
    func outputFolderMissing() throws {
        let folder = try TemporaryFolder()
        _ = try recorded(folder.url)
        let result = try ProfctlProcess.run(["report", "--db", "p.sqlite", "-o", "nodir/r.html"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("the folder nodir does not exist"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
    }

    @Test("--db '' is refused by reading and recording commands alike", arguments: [
        ["record", "lazy-container", "--instances", "5", "--db", ""], ["runs", "--db", ""], ["report", "--db", ""],
    ])
    func emptyDatabasePath(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try ProfctlProcess.run(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--db is empty"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("--strategies '' records nothing and says which strategies there are")
    func emptyStrategies() throws {
        let folder = try TemporaryFolder()
        let db = try recorded(folder.url)
        let result = try ProfctlProcess.run(["record", "lazy-container", "--strategies", "", "--db", "p.sqlite"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--strategies '' names no strategy: give at least one of eager, lazy, lazy-realized"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db.path)) == db.bytes)
    }

    @Test("-o a named pipe writes into the pipe and leaves it a pipe (an atomic write replaced it with a file, and as root /dev/null too)",
          .timeLimit(.minutes(1)))
    func outputIntoPipe() throws {
        let folder = try TemporaryFolder()
        _ = try recorded(folder.url)
        let pipe = folder.url.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [pipe]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let result = try ProfctlProcess.run(["report", "--db", "p.sqlite", "--format", "csv", "-o", pipe], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        let stillPipe = stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
        #expect(stillPipe, "still a named pipe")
        if !stillPipe { reader.terminate() }  // nothing will ever write to the pipe it waits on
        let read = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(read.contains("component,strategy"), "\(read)")
    }
}
