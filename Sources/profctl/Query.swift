import ArgumentParser
import Profiler
import ProfilerCLI

struct Query: ParsableCommand, Exemplified {
    static let examples = [
        "profctl query 'SELECT component, strategy, bytes_per_instance FROM savings' --format csv",
        "profctl query 'SELECT kind, count(*) FROM events GROUP BY kind'",
    ]

    static let configuration = CommandConfiguration(
        abstract: "Run one read-only SQL statement against the database.",
        discussion: """
            The database is opened read-only; a statement that would change it is \
            refused. The views (savings, savings_usable) are documented in docs/schema.md.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "One SQL statement.")
    var sql: String

    @Option(help: "table, markdown, csv or json.")
    var format = OutputFormat.table

    func run() throws {
        try reportingErrors {
            let db = try ProfileStore.openForReading(path: database.path)
            Console.output(format.renderer.render(try ReadOnlyQuery.run(sql, on: db)))
        }
    }
}
