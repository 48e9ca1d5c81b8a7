import ProfilerModel
import ProfilerStore

/// One row of the `savings` view.
package struct SavingsRow: Sendable, Equatable, Codable {
    package let component: String
    package let strategy: String
    package let instances: Int
    package let bytesPerInstance: Double
    package let baselineStrategy: String
    package let savedBytes: Double?
    package let savingsPct: Double?

    enum CodingKeys: String, CodingKey {
        case component, strategy, instances
        case bytesPerInstance = "bytes_per_instance"
        case baselineStrategy = "baseline_strategy"
        case savedBytes = "saved_bytes"
        case savingsPct = "savings_pct"
    }
}

/// The savings table of one run.
package struct SavingsReport: Sendable, Equatable, Codable {
    package let run: RunInfo
    package let measure: String
    package let rows: [SavingsRow]

    enum CodingKeys: String, CodingKey { case run, measure = "bytes", rows }

    package static func load(run reference: String, measure: ByteMeasure, from db: SQLiteConnection) throws -> SavingsReport {
        let run = try RunQueries.resolve(reference, in: db)
        let rows = try db.rows("""
            SELECT component, strategy, instances, bytes_per_instance, baseline_strategy, saved_bytes, savings_pct
            FROM \(measure.view) WHERE run_id = ?
            """, [.text(run.runID)])
        return SavingsReport(run: run, measure: measure.rawValue, rows: rows.map { r in
            SavingsRow(component: r[0].string ?? "", strategy: r[1].string ?? "",
                       instances: Int(r[2].int64 ?? 0), bytesPerInstance: r[3].double ?? 0,
                       baselineStrategy: r[4].string ?? "", savedBytes: r[5].double, savingsPct: r[6].double)
        })
    }
}
