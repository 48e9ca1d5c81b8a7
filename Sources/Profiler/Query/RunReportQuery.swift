import ProfilerModel
import ProfilerStore

// Reading a run's report from a store: the query half of RunReport (the value is in ProfilerModel,
// so renderers take it without reaching the store).

extension RunReport {
    /// Reads the run's rows from its report's view, as the catalog declares it.
    public static func load(_ run: RunInfo, measure: ByteMeasure, catalog: ReportCatalog,
                            from db: any SQLRowSource) throws -> RunReport {
        let declaration = try catalog.declaration(of: run)
        let byMeasure = declaration.byMeasure
        let sql = "SELECT * FROM \(declaration.view) WHERE run_id = ?" + (byMeasure ? " AND bytes_measure = ?" : "")
        let values: [SQLValue] = byMeasure ? [.text(run.runID), .text(measure.rawValue)] : [.text(run.runID)]
        let result = try db.table(sql, values)
        let keep = result.columns.enumerated().filter { !runColumns.contains($0.element) }
        let rows = result.rows.map { row in keep.map { row[$0.offset] } }
        let table = neverWhereLazyNeverWins(ResultTable(columns: keep.map(\.element), rows: rows))
        return RunReport(run: run, declaration: declaration, measure: byMeasure ? measure : nil, table: table)
    }

    /// The runs a report covers: one by id (or `latest`), the newest of one scenario, or
    /// by default the newest complete run of every scenario recorded.
    public static func runs(reference: String?, scenario: String?, in db: any SQLRowSource) throws -> [RunInfo] {
        if let reference {
            let run = try RunQueries.resolve(reference, scenario: scenario, in: db)
            if let scenario, run.scenario != scenario {
                throw StoreError.runNotFound(path: db.storeName, run: "\(reference) of scenario \(scenario)")
            }
            return [run]
        }
        if let scenario { return [try RunQueries.resolve("latest", scenario: scenario, in: db)] }
        let runs = try RunQueries.latestPerScenario(db)
        guard !runs.isEmpty else { throw StoreError.noRuns(path: db.storeName) }
        return runs
    }
}
