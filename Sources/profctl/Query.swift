import ArgumentParser
import Profiler
import ProfilerCLI

struct Query: StoreCommand, Exemplified {
    static let examples = [
        "profctl query 'SELECT component, strategy, bytes_per_instance FROM savings' --format csv",
        "profctl query 'SELECT kind, count(*) FROM event_log GROUP BY kind'",
        "profctl query --store postgres://ci@db.example/profctl 'SELECT count(*) FROM runs'",
    ]

    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one read-only SQL statement against the database.",
        discussion: """
            The database is opened read-only; a statement that would change it, ATTACH \
            another file, set a pragma or load an extension is refused (exit 64), and so is \
            a second statement after the first. A statement \
            still running after --timeout seconds is stopped (exit 1); at most --max-rows \
            rows are printed, with a note on stderr when more were left out. The views are \
            documented in docs/schema.md. With --store, the statement runs on the PostgreSQL \
            store in a read-only transaction with the same timeout and row cap.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var store: StoreOptions

    @Argument(help: "One SQL statement.")
    var sql: String

    @Option(help: TableFormat.help())
    var format = TableFormat(.table)

    @Option(parsing: .unconditional, help: "Stop the statement after this many seconds (more than 0).")
    var timeout = 10.0

    @Option(name: .customLong("max-rows"), parsing: .unconditional, help: "Print at most this many rows (1 or more).")
    var maxRows = 10_000

    func validate() throws {
        if sql.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            throw ValidationError("the SQL statement is empty; give one, for example: profctl query 'SELECT * FROM runs'")
        }
        guard timeout > 0 && timeout.isFinite else { throw ValidationError("--timeout must be more than 0 seconds (got \(timeout))") }
        guard maxRows >= 1 else { throw ValidationError("--max-rows must be at least 1 (got \(maxRows))") }
    }

    func execute() throws {
        let limits = QueryLimits(seconds: timeout, maxRows: maxRows)
        let result = if let url = store.url {
            try SharedStoreLink.require().query(sql, target: url, limits: limits)
        } else {
            try Self.namingRelations(in: ProfileStore.openForReading(path: database.path)) { db in
                try ReadOnlyQuery.run(sql, on: db, limits: limits)
            }
        }
        Console.output(try format.format.render(result.table))
        if result.truncated {
            Console.message("profctl: output truncated to the first \(maxRows) rows; raise --max-rows or add a LIMIT")
        }
    }

    /// A table or view that does not exist is a name the user typed: exit 64 with the
    /// views and tables there are (SQLite said only "no such table").
    static func namingRelations(in db: SQLiteConnection, _ body: (SQLiteConnection) throws -> QueryResult) throws -> QueryResult {
        do {
            return try body(db)
        } catch let error as InvalidStatement where error.message.hasPrefix("no such table: ") {
            let name = String(error.message.dropFirst("no such table: ".count))
            let known = try db.table("""
                SELECT name FROM sqlite_schema WHERE type IN ('view', 'table') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY type DESC, name
                """, []).rows.compactMap { $0.first?.string }
            throw UnknownNameError(kind: "table or view", name: name, origin: "query", known: known,
                                   hint: "The views are documented in docs/schema.md")
        }
    }
}
