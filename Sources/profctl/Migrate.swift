import ArgumentParser
import Profiler
import ProfilerCLI

struct Migrate: ProfctlCommand, Exemplified {
    static let examples = [
        "profctl migrate",
        "profctl migrate --status --db old.sqlite",
    ]

    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the database's schema up to this profctl's, or show where it stands.",
        discussion: """
            Each migration applies in one transaction and is recorded with a checksum. \
            `record` migrates on its own; read-only commands ask you to run this.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Only show applied and pending migrations; change nothing.")
    var status = false

    func execute() throws {
        let migrator = Migrator()
        if status {
            let db = try ProfileStore.openForInspection(path: database.path)
            let rows = try migrator.status(of: db)
            Console.output(TableRenderer().render(ResultTable(
                columns: ["version", "name", "state", "applied_at"],
                rows: rows.map { [.init($0.version), .text($0.name), .text($0.state.rawValue), SQLValue($0.appliedAt)] })))
            return
        }
        let (_, applied) = try ProfileStore.openAndMigrate(path: database.path, migrator: migrator,
                                                            views: BuiltInScenarios.reportViews())
        let names = applied.compactMap { v in migrator.migrations.first { $0.version == v }.map { "\(v) (\($0.name))" } }
        Console.message(applied.isEmpty
            ? "\(database.path) is up to date at schema version \(migrator.latestVersion)"
            : "\(database.path): applied \(names.joined(separator: ", ")); now at schema version \(migrator.latestVersion)")
    }
}
