import Foundation
import ProfilerModel
import ProfilerStore

/// The report declarations a database's runs are read with: those stored beside their
/// views (`report_views`, written when a file is opened for writing or a store pushed
/// to), then the ones compiled in for what the database does not describe (a report whose
/// view still comes from the file's migrations 0002/0003 or the store's 0001/0003).
package struct ReportCatalog: Sendable {
    package let reports: [String: ReportDeclaration]

    package init(_ declarations: [ReportDeclaration]) {
        reports = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Stored declarations win: they describe the view the database actually has.
    package static func load(from db: any SQLRowSource, declared: [ReportDeclaration]) throws -> ReportCatalog {
        var all = try stored(in: db)
        let names = Set(all.map(\.name))
        all += declared.filter { !names.contains($0.name) }
        return ReportCatalog(all)
    }

    /// The declarations stored in `report_views`; none where the table does not exist.
    static func stored(in db: any SQLRowSource) throws -> [ReportDeclaration] {
        // A PostgreSQL store before its version 4 has no table, and describes nothing.
        guard try db.hasRelation("report_views") else { return [] }
        let table = try db.table("SELECT report, declaration FROM report_views ORDER BY view", [])
        return try table.rows.map { row in
            let text = row[1].string ?? ""
            do {
                return try JSONDecoder().decode(ReportDeclaration.self, from: Data(text.utf8))
            } catch {
                throw ReportCatalogError.unreadableDeclaration(report: row[0].string ?? "", store: db.storeName,
                                                               reason: String(describing: error))
            }
        }
    }

    /// The declaration of a run's report.
    package func declaration(of run: RunInfo) throws -> ReportDeclaration {
        guard let report = reports[run.report] else {
            throw ReportCatalogError.unknownReport(run.report, scenario: run.scenario, known: reports.keys.sorted())
        }
        return report
    }
}

package enum ReportCatalogError: Error, CustomStringConvertible, Equatable, Sendable {
    case unknownReport(String, scenario: String, known: [String])
    case unreadableDeclaration(report: String, store: String, reason: String)
    case invalidDeclaration(String)

    package var description: String {
        switch self {
        case .unknownReport(let report, let scenario, let known):
            "\(scenario)'s runs use the report '\(report)', which this database does not describe and this profctl does not know "
                + "(known: \(known.joined(separator: ", "))); record it again with the executable that declares it, "
                + "which stores its report in the database"
        case .unreadableDeclaration(let report, let store, let reason):
            "\(store): the stored declaration of report '\(report)' cannot be read (\(reason)); "
                + "open the database for writing with the executable that declares it to store it again"
        case .invalidDeclaration(let problem): problem
        }
    }
}
