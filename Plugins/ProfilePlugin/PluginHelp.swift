/// `swift package profile --help`.
enum PluginHelp {
    static let text = """
        OVERVIEW: Record this package's own components with profctl, print the reports, and gate them.

        USAGE: swift package profile [record] [--db PATH] [--executable NAME ...] [record options]
               swift package profile report [--db PATH] [profctl report options]
               swift package profile check [--db PATH] [profctl check options]

        COMMANDS:
          record (default)  Build in release every executable of this package that depends on ProfilerCLI (and so
                            runs ProfilerMain), record its scenarios into the database and print each run's report.
                            Other options go to the executables: --instances, --set, --strategies, --quiet, a
                            scenario's name (see `swift run NAME --help`).
          report            profctl report on the database (--format, --scenario, --run, -o ...).
          check             profctl check on the database (--budget FILE, --baseline NAME, --leaks ...), with its
                            exit codes (docs/ci.md); swift package itself exits 1 on any of them, so the plugin
                            names the profctl command that returns the code as is.

        OPTIONS:
          --db PATH         The database (default: .profctl/profile.sqlite in the package's folder).
          --executable NAME Record only this executable (repeatable); a name that is not one exits 64 with the list.
          -h, --help        Show this help.

        EXAMPLES:
          swift package profile --instances 500
          swift package profile report --format markdown
          swift package profile check --budget budgets.yaml
        """
}
