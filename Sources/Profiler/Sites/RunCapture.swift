import ProfilerModel
import ProfilerQueries
import ProfilerRecording
import ProfilerStore

/// What `record --sites` or `record --types` stored beside a run, read the same way by
/// both: the table that lists the runs which have it, the view its rows come from, the
/// filter names that view has, and what to say when a run has none. One place for the
/// run resolution and name checks that `sites`, `types` and their `--diff` share.
package struct RunCapture: Sendable {
    /// "sites" or "types": how messages name what was captured.
    package let noun: String
    let runsTable: String
    let view: String
    /// The view's columns a ``CaptureFilter`` can match.
    package let filterColumns: [String]
    let noCapture: @Sendable (_ runID: String) -> any Error
    let noCapturedRuns: @Sendable (_ store: String, _ scenario: String?) -> any Error

    /// `record --sites`: the site_summary view.
    package static let sites = RunCapture(
        noun: "sites", runsTable: "site_runs", view: "site_summary", filterColumns: ["component", "strategy", "kind"],
        noCapture: { SiteError.noSites(run: $0) }, noCapturedRuns: { SiteError.noSiteRuns(path: $0, scenario: $1) })

    /// `record --types`: the types view.
    package static let types = RunCapture(
        noun: "types", runsTable: "object_type_runs", view: "types", filterColumns: ["component", "strategy", "kind", "type"],
        noCapture: { TypeCaptureError.noTypes(run: $0) }, noCapturedRuns: { TypeCaptureError.noTypeRuns(path: $0, scenario: $1) })

    /// The run a command reads: `reference` (an id, a prefix or `latest`) or, by default,
    /// the newest run that has this capture (of `scenario`, when given). Throws when the
    /// run has none.
    package func run(_ reference: String?, scenario: String? = nil, in db: any SQLRowSource) throws -> RunInfo {
        if let reference {
            // As report's --run with --scenario: `latest` is that scenario's newest run, and a
            // run id of another scenario is no run of it.
            let run = try RunQueries.resolve(reference, scenario: scenario, in: db)
            if let scenario, run.scenario != scenario {
                throw StoreError.runNotFound(path: db.storeName, run: "\(reference) of scenario \(scenario)")
            }
            guard try has(run.runID, in: db) else { throw noCapture(run.runID) }
            return run
        }
        // `runsTable` is one of the two fixed names above, never user input.
        guard let id = try db.scalar("""
            SELECT r.run_id FROM runs r JOIN \(runsTable) c ON c.run_key = r.run_key
            WHERE CAST(?1 AS TEXT) IS NULL OR r.scenario = ?1
            ORDER BY r.started_at DESC, r.run_id DESC LIMIT 1
            """, [SQLValue(scenario)])?.string else { throw noCapturedRuns(db.storeName, scenario) }
        return try RunQueries.resolve(id, in: db)
    }

    /// Whether the run was recorded with this capture.
    package func has(_ runID: String, in db: any SQLRowSource) throws -> Bool {
        try db.scalar("SELECT 1 FROM \(runsTable) c JOIN runs r ON r.run_key = c.run_key WHERE r.run_id = ?",
                      [.text(runID)]) != nil
    }

    /// Checks every name of `filter` against the runs' rows: an unknown one throws
    /// ``UnknownNameError`` with the valid choices.
    /// - Parameter origin: put before the field's name to say where it was given (the CLI passes `--`).
    package func validate(_ filter: CaptureFilter, runIDs: [String], optionPrefix origin: String? = nil,
                          in db: any SQLRowSource) throws {
        let origin = origin ?? "\(noun.dropLast()) filter "
        for (column, value) in filter.fields {
            guard let value else { continue }
            guard filterColumns.contains(column) else {
                throw UnknownNameError(kind: "filter", name: column, origin: "\(origin)\(column)",
                                       scope: "of the \(noun)", known: filterColumns)
            }
            var known: Set<String> = []
            for runID in runIDs {
                known.formUnion(try db.rows("SELECT DISTINCT \(column) FROM \(view) WHERE run_id = ?", [.text(runID)])
                    .compactMap { $0.first?.string })
            }
            guard known.contains(value) else {
                throw UnknownNameError(kind: column, name: value, origin: "\(origin)\(column)",
                                       scope: "in the \(noun) of run " + runIDs.joined(separator: " and "), known: known.sorted())
            }
        }
    }
}
