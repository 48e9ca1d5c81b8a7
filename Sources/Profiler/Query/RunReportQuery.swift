import ProfilerModel
import ProfilerStore

// Reading a run's report from a store: the query half of RunReport (the value is in ProfilerModel,
// so renderers take it without reaching the store).

extension RunReport {
    /// Reads the run's rows from its report's view, as the catalog declares it.
    package static func load(_ run: RunInfo, measure: ByteMeasure, catalog: ReportCatalog,
                            from db: any SQLRowSource) throws -> RunReport {
        let declaration = try catalog.declaration(of: run)
        let table = try tablesByRun([run.runID], of: declaration, measure: measure, in: db)[run.runID]
        return RunReport(run: run, declaration: declaration, measure: declaration.byMeasure ? measure : nil,
                         table: table ?? ResultTable(columns: [], rows: []))
    }

    /// The reports of many runs, in their order: the same rows as `load` run by run, with
    /// each report's view read once for all of its runs (in chunks of `chunkSize` run ids).
    /// A view is computed over the whole history before it is filtered, so reading it run by
    /// run costs the history once per run: `trend` over 500 runs took minutes that way.
    package static func load(_ runs: [RunInfo], measure: ByteMeasure, catalog: ReportCatalog,
                            from db: any SQLRowSource, chunkSize: Int = 500) throws -> [RunReport] {
        let declarations = try runs.map { try catalog.declaration(of: $0) }
        let chunk = max(1, chunkSize)
        var tables: [String: ResultTable] = [:]
        for group in Dictionary(grouping: zip(runs, declarations), by: { $0.1.name }).values {
            guard let declaration = group.first?.1 else { continue }
            let ids = group.map(\.0.runID)
            for start in stride(from: 0, to: ids.count, by: chunk) {
                let some = Array(ids[start..<min(ids.count, start + chunk)])
                tables.merge(try tablesByRun(some, of: declaration, measure: measure, in: db)) { _, new in new }
            }
        }
        return zip(runs, declarations).map { run, declaration in
            RunReport(run: run, declaration: declaration, measure: declaration.byMeasure ? measure : nil,
                      table: tables[run.runID] ?? ResultTable(columns: [], rows: []))
        }
    }

    /// One statement over the view for `runIDs`, split by run: each run's rows keep the
    /// view's order, and a run without rows gets the columns and no rows, as `load` gives it.
    private static func tablesByRun(_ runIDs: [String], of declaration: ReportDeclaration, measure: ByteMeasure,
                                    in db: any SQLRowSource) throws -> [String: ResultTable] {
        let placeholders = Array(repeating: "?", count: runIDs.count).joined(separator: ", ")
        let sql = "SELECT * FROM \(declaration.view) WHERE run_id IN (\(placeholders))" + (declaration.byMeasure ? " AND bytes_measure = ?" : "")
        let result = try db.table(sql, runIDs.map(SQLValue.text) + (declaration.byMeasure ? [.text(measure.rawValue)] : []))
        guard let runColumn = result.columns.firstIndex(of: "run_id") else {
            throw ReportCatalogError.invalidDeclaration("report \(declaration.name): its view \(declaration.view) has no run_id column")
        }
        let keep = result.columns.enumerated().filter { !runColumns.contains($0.element) }
        var rows: [String: [[SQLValue]]] = [:]
        for row in result.rows {
            guard let runID = row[runColumn].string else { continue }
            rows[runID, default: []].append(keep.map { row[$0.offset] })
        }
        return Dictionary(runIDs.map { runID in
            (runID, presented(ResultTable(columns: keep.map(\.element), rows: rows[runID] ?? [])))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The runs a report covers: one by id (or `latest`), the newest of one scenario, or
    /// by default the newest complete run of every scenario recorded.
    package static func runs(reference: String?, scenario: String?, in db: any SQLRowSource) throws -> [RunInfo] {
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
