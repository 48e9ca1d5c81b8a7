import ArgumentParser
import Foundation
import Profiler
import ProfilerCLI

extension CapacityUnit: ExpressibleByArgument {}

struct WhatIf: StoreCommand, Exemplified {
    static let examples = [
        "profctl record image-cache --set requests=2000 --quiet && profctl whatif",
        "profctl whatif --policy lru,sieve --capacity 256KB,1MB,4MB",
        "profctl whatif --hit-ratio 0.8                 # the smallest capacity per policy",
        "profctl whatif --check-replay                  # each strategy replayed reproduces the run",
        "profctl whatif --by entries --format html -o whatif.html",
    ]

    static let configuration = CommandConfiguration(
        commandName: "whatif",
        abstract: "Hit ratio and memory of other cache sizes and policies, from one recorded run's request trace.",
        discussion: """
            Replays a cache strategy's recorded lookups (hit, miss with the bytes it built), \
            releases and idle turns through other policies and capacities: LRU exactly at \
            every capacity at once (stack distances), FIFO, LFU, 2Q and SIEVE by simulation, \
            and the image-cache strategies themselves (weak, sweep, unbounded, none). One row \
            per policy and capacity; --hit-ratio X answers the smallest capacity reaching X \
            instead; --check-replay replays each strategy as what it is and compares with what \
            was recorded (exit 1 on any difference). The key is the event's component. \
            Default run: the newest with cache lookups; default trace: its first strategy's. \
            With --store, a run pushed to the team's PostgreSQL store (docs/fleet.md).
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("run"), help: "A run id (or unambiguous prefix), or `latest`. Default: the newest run with cache lookups.")
    var runReference: String?

    @Option(help: "Whose trace to replay (a strategy of the run). Default: its first strategy with lookups.")
    var strategy: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Policies, comma-separated: \(CachePolicy.names.joined(separator: ", ")). Default: all.", valueName: "names"))
    var policy: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Capacities, comma-separated: bytes with a unit (512KB, 1.5MiB), or entries with --by entries. Default: 12 from one entry to all of them.", valueName: "list"))
    var capacity: String?

    @Option(help: "What a capacity counts: bytes or entries.")
    var by = CapacityUnit.bytes

    @Option(name: .customLong("hit-ratio"), parsing: .unconditional, help: ArgumentHelp("Answer the smallest capacity per policy whose hit ratio is at least this (above 0, at most 1).", valueName: "ratio"))
    var hitRatio: String?

    @Flag(name: .customLong("check-replay"), help: "Replay each strategy of the run as the policy it is and compare with the recorded hits, misses, evictions and bytes kept.")
    var checkReplay = false

    @Option(help: TableFormat.help("the curves as charts above the table"))
    var format = TableFormat(.table)

    @Option(name: [.short, .customLong("output")], help: "Write to this file instead of stdout.")
    var output: String?

    func validate() throws {
        try OutputPath.validate(output)
        _ = try policies()
        _ = try capacities()
        _ = try target()
        // Options a mode does not read are refused, not ignored: a typo'd --strategy must
        // not pass --check-replay's gate, nor --capacity look answered by --hit-ratio.
        if checkReplay && (policy != nil || capacity != nil || hitRatio != nil || strategy != nil) {
            throw ValidationError("--check-replay replays each strategy as what it is; leave out --policy, --capacity, --hit-ratio and --strategy")
        }
        if hitRatio != nil && capacity != nil {
            throw ValidationError("--hit-ratio answers the capacity; leave out --capacity (or leave out --hit-ratio to replay those capacities)")
        }
    }

    func policies() throws -> [CachePolicy] {
        guard let policy else { return CachePolicy.allCases }
        let names = policy.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { throw ValidationError("--policy is empty; valid choices: \(CachePolicy.names.joined(separator: ", "))") }
        return try names.map { name in
            guard let known = CachePolicy(rawValue: name.lowercased()) else {
                throw ValidationError("--policy \(name) is not a policy; valid choices: \(CachePolicy.names.joined(separator: ", "))")
            }
            return known
        }
    }

    func capacities() throws -> [Int]? {
        guard let capacity else { return nil }
        do {
            return try capacity.split(separator: ",", omittingEmptySubsequences: false).map { try ByteCapacity.parse(String($0), unit: by) }
        } catch let error as CapacityError {
            throw ValidationError("--capacity: \(error.description)")
        }
    }

    func target() throws -> Double? {
        guard let hitRatio else { return nil }
        guard let value = Double(hitRatio), value > 0, value <= 1 else {
            throw ValidationError("--hit-ratio \(hitRatio) is not a hit ratio; give a number above 0 and at most 1, such as 0.9")
        }
        return value
    }

    func execute() throws {
        let db = try store.open(database)
        let run = try resolveRun(db)
        noteIncomplete([run])
        let strategies = try CacheTraceQuery.strategies(runID: run.runID, in: db)
        if checkReplay { return try replayCheck(run, strategies, db) }
        let chosen = try strategy ?? strategies.first.orThrow(NoCacheLookupsError(runID: run.runID, runsWithLookups: []))
        guard strategies.contains(chosen) else {
            throw UnknownNameError(kind: "strategy with cache lookups", name: chosen, origin: "--strategy",
                                   scope: "in run \(run.runID.prefix(8)) (\(run.scenario))", known: strategies)
        }
        let trace = try CacheTraceQuery.load(runID: run.runID, strategy: chosen, in: db)
        let policies = try policies()
        Console.message("""
            whatif: run \(run.runID.prefix(8)) (\(run.scenario)), \(chosen)'s trace: \(trace.requests) lookups of \
            \(trace.distinctKeys) keys, \(trace.totalBytes) bytes if all were kept
            """)
        let table: ResultTable
        if let target = try target() {
            table = WhatIfAnalysis.smallestCapacities(trace, policies: policies, target: target, unit: by, lru: LRUCurve(trace))
        } else {
            let capacities = try capacities() ?? WhatIfAnalysis.defaultCapacities(trace, unit: by)
            table = WhatIfAnalysis.curve(trace, policies: policies, capacities: capacities, unit: by)
        }
        let text = format == .html && hitRatio == nil
            ? WhatIfPage.render(table, title: "run \(run.runID), \(run.scenario), \(chosen)'s trace: \(trace.requests) lookups of \(trace.distinctKeys) keys")
            : try format.format.render(table)
        try emit(text)
    }

    /// The HTML report's charts for a run with cache lookups: every policy at the default
    /// capacities over its first strategy's trace; none for a run without lookups.
    static func reportCharts(_ run: RunInfo, in db: any SQLRowSource) throws -> [String] {
        guard let first = try CacheTraceQuery.strategies(runID: run.runID, in: db).first else { return [] }
        let trace = try CacheTraceQuery.load(runID: run.runID, strategy: first, in: db)
        let table = WhatIfAnalysis.curve(trace, policies: CachePolicy.allCases,
                                         capacities: WhatIfAnalysis.defaultCapacities(trace, unit: .bytes), unit: .bytes)
        return WhatIfPage.charts(table)
    }

    private func emit(_ text: String) throws {
        if let output {
            try OutputPath.write(Data(text.utf8), to: output)
            Console.message("wrote \(output)")
        } else {
            Console.output(text)
        }
    }

    private func resolveRun(_ db: any SQLRowSource) throws -> RunInfo {
        if let runReference {
            guard let run = try RunReport.runs(reference: runReference, scenario: nil, in: db).first else {
                throw NoCacheLookupsError(runID: runReference, runsWithLookups: try CacheTraceQuery.runsWithRequests(in: db))
            }
            guard try !CacheTraceQuery.strategies(runID: run.runID, in: db).isEmpty else {
                throw NoCacheLookupsError(runID: run.runID, runsWithLookups: try CacheTraceQuery.runsWithRequests(in: db))
            }
            return run
        }
        let withLookups = try CacheTraceQuery.runsWithRequests(in: db, limit: 1)
        guard let newest = withLookups.first?.split(separator: " ").first else {
            throw NoCacheLookupsError(runID: nil, runsWithLookups: [])
        }
        return try RunReport.runs(reference: String(newest), scenario: nil, in: db).first
            .orThrow(NoCacheLookupsError(runID: nil, runsWithLookups: []))
    }

    private func replayCheck(_ run: RunInfo, _ strategies: [String], _ db: any SQLRowSource) throws {
        // By its report, not its name: a scenario file's run (scenarios/zipf-images.yaml) is
        // named by the file, and is an image-cache run all the same.
        let cacheScenarios = BuiltInScenarios.all.compactMap { $0 as? any CacheTraceScenario }
        guard let scenario = cacheScenarios.first(where: { $0.name == run.scenario || $0.report.name == run.report }) else {
            Console.error("--check-replay knows the strategies of \(cacheScenarios.map(\.name).joined(separator: ", ")) and their scenario files; run \(run.runID.prefix(8)) is \(run.scenario)")
            throw ExitCode(ExitCodes.usage)
        }
        var checks: [ReplayCheck] = []
        for name in strategies {
            guard let policy = scenario.cachePolicies[name] else { continue }
            let trace = try CacheTraceQuery.load(runID: run.runID, strategy: name, in: db)
            checks.append(ReplayCheck(strategy: name, policy: policy, trace: trace,
                                      recordedEndBytes: try CacheTraceQuery.endLiveBytes(runID: run.runID, strategy: name, in: db)))
        }
        try emit(format.format.render(ResultTable(columns: ReplayCheck.columns, rows: checks.map(\.row))))
        let differing = checks.filter { !$0.matches }.map(\.strategy)
        guard differing.isEmpty else {
            Console.error("replaying the trace did not reproduce the run for \(differing.joined(separator: ", ")); the table shows where")
            throw ExitCode(ExitCodes.failure)
        }
        Console.message("whatif: every strategy's replay reproduces run \(run.runID.prefix(8)) exactly")
    }
}

extension Optional {
    func orThrow(_ error: @autoclosure () -> any Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
