import ArgumentParser
import Profiler
import ProfilerCLI

/// The root command; ProfctlEntry.main runs it (profctl and profctl-pg call that).
struct Profctl: ParsableCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container && profctl report",
        "sqlite3 profile.sqlite 'SELECT * FROM savings'",
        "PROFCTL_DB=ci.sqlite profctl record lazy-container --repeat 3",
    ]

    static var configuration: CommandConfiguration { CompletionScriptCheck.configuration(plainConfiguration) }

    private static let plainConfiguration = CommandConfiguration(
        commandName: "profctl",
        abstract: "Record, report and check what ways of creating things cost in memory, to the byte.",
        discussion: """
            Scenarios run on real allocation hooks inside this process; every lifecycle \
            event (create, realize, hit, miss, evict, release) is stored with its bytes in \
            a SQLite database (./profile.sqlite unless --db or PROFCTL_DB says otherwise).
            """,
        version: ProfilerVersion.current,
        subcommands: [Record.self, Report.self, Query.self, Check.self, Baseline.self, Compare.self, TrendCommand.self, Export.self, Sites.self, Types.self,
                      WhatIf.self, Runs.self, Scenarios.self, Merge.self, Push.self, Migrate.self, Prune.self]
    )
}
