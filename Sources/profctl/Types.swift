import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

struct Types: StoreCommand, Exemplified {
    static let examples = [
        "profctl record lazy-container --types --quiet",
        "profctl types --component Label --strategy eager",
        "profctl types --type 'ProfilerPrimitives.LazyContainer<ProfilerCatalog.Label, ProfilerCatalog.View>'",
        "profctl types --diff latest latest --component Label   # A B: run ids or prefixes (profctl runs)",
        "profctl types --scenario lazy-container --format csv -o types.csv",
    ]

    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Which Swift types fill the bytes: the objects of a run recorded with --types, by type.",
        discussion: """
            One row per (component, strategy, event kind, type): every object swift_allocObject \
            allocated in a measured instance, by its type's demangled name (docs/hooks.md, \
            "Types"); closure contexts and boxes are named by their kind of storage. The row \
            '(not a Swift object)' holds the blocks no object claims, so the types of a \
            (component, strategy, kind) add up exactly to its allocations and bytes. \
            objects_per_instance divides by the measured instances (events). --diff A B lists \
            the types whose objects or bytes per instance grew, shrank, appeared or vanished \
            from run A to run B; like check with its baseline, it refuses (exit 6) runs recorded \
            in another environment or with other workload parameters unless --allow-env-mismatch \
            or --allow-param-mismatch. Default run: the newest one recorded with --types (of \
            --scenario, when given). With --store, the same from the team's PostgreSQL store \
            (runs pushed with their types, docs/fleet.md).
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest`. Default: the newest run recorded with --types.")
    var runReference: String?

    @Option(help: "Only this scenario's runs: its newest run recorded with --types (with --run or --diff, runs of it).")
    var scenario: String?

    @Option(help: "Only this component's types.") var component: String?
    @Option(help: "Only this strategy's types.") var strategy: String?
    @Option(help: "Only this event kind's types (create, realize, hit, miss, evict, release).") var kind: String?
    @Option(name: .customLong("type"), help: "Only this type (its full name, as the table shows it).") var typeName: String?

    @Option(name: .customLong("diff"), parsing: .upToNextOption,
            help: ArgumentHelp("Compare two runs' types (ids, prefixes or latest).", valueName: "A B"))
    var diff: [String] = []

    @OptionGroup var mismatch: MismatchAllowance

    @Option(help: TableFormat.help()) var format = TableFormat(.table)

    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of stdout.")
    var output: String?

    func validate() throws {
        try OutputPath.validate(output)
        try RunListingOptions.validate(runReference: runReference, scenario: scenario, diff: diff, mismatch: mismatch, kind: kind)
        if typeName?.isEmpty == true { throw ValidationError("--type is empty; give a type name as `profctl types` lists it") }
    }

    func execute() throws {
        let db = try store.open(database)
        if let scenario { try ScenarioNames.requireScenario(scenario, origin: "--scenario", in: db) }
        let filter = CaptureFilter(component: component, strategy: strategy, kind: kind, type: typeName)
        if diff.count == 2 {
            return try emit(format.format.render(RunListingOptions.diffTable(
                diff, scenario: scenario, filter: filter, capture: TypeQuery.capture, mismatch: mismatch, in: db,
                rows: { try TypeQuery.rows(runID: $0, filter: filter, in: db) }, compare: TypeDiff.compare, table: TypeDiff.table)))
        }
        let run = try RunListingOptions.listedRun(runReference, scenario: scenario, filter: filter, capture: TypeQuery.capture, in: db)
        try emit(format.format.render(TypeQuery.table(try TypeQuery.rows(runID: run.runID, filter: filter, in: db))))
    }

    private func emit(_ text: String) throws { try RunListingOptions.emit(text, to: output, capture: TypeQuery.capture) }
}
