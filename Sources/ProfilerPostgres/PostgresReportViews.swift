import Foundation
import Profiler

/// The report views of the PostgreSQL store, created from the same declarations (and the
/// same query text) as the SQLite file's, so no view is mirrored by hand in a migration:
/// like the file's `ReportViews`, a view is created, or dropped and created again, when its
/// declaration's checksum differs from the one stored in `report_views`.
package enum PostgresReportViews {
    /// A view the store refused (a user's report written in SQL only SQLite takes): its
    /// runs are still pushed; `report --store` cannot read them until it is fixed.
    package struct Refused: Sendable, Equatable, CustomStringConvertible {
        package let report: String
        package let view: String
        package let reason: String

        package var description: String {
            "the store cannot create report \(report)'s view \(view) (\(reason)); its runs are pushed, but `report --store` "
                + "cannot read them until the report's query is written in SQL both stores take (docs/schema.md, Report views)"
        }
    }

    /// pg_advisory_xact_lock key: concurrent pushers install the views once.
    static let lockKey: Int64 = 0x70_72_6f_66_76_69_65

    /// Installs what is missing or changed, in one transaction; each view in a savepoint,
    /// so one the store refuses leaves the others (and the stored declarations) as they were.
    package static func install(_ views: [RepeatableView], in db: PostgresConnection) throws -> [Refused] {
        guard try !stale(views, in: db).isEmpty else { return [] }
        return try db.transaction {
            try db.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
            var refused: [Refused] = []
            // Another pusher may have installed them while this one waited for the lock.
            for view in try stale(views, in: db) {
                guard view.hasSafeName else {
                    refused.append(Refused(report: view.report, view: view.view, reason: "not a name of lowercase letters, digits and _"))
                    continue
                }
                try db.execute("SAVEPOINT report_view")
                do {
                    try db.execute("DROP VIEW IF EXISTS \(view.view)")
                    try db.execute("CREATE VIEW \(view.view) AS\n\(view.query)")
                    _ = try db.query("DELETE FROM report_views WHERE view = $1 OR report = $2", [.text(view.view), .text(view.report)])
                    _ = try db.query("""
                        INSERT INTO report_views (view, report, checksum, query, declaration, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
                        """, [.text(view.view), .text(view.report), .text(view.checksum), .text(view.query), .text(view.declaration),
                              .text(Date().formatted(.iso8601))])
                    try db.execute("RELEASE SAVEPOINT report_view")
                } catch let error as PostgresError {
                    // Class 42 (syntax, undefined function or column, grouping): the query is one the
                    // store does not take. Anything else (a full disk, a lost connection) fails the push.
                    guard case .server(_, let state, let message) = error, state.hasPrefix("42") else { throw error }
                    try db.execute("ROLLBACK TO SAVEPOINT report_view")
                    refused.append(Refused(report: view.report, view: view.view, reason: message))
                }
            }
            return refused
        }
    }

    /// The views whose stored checksum is missing or different.
    static func stale(_ views: [RepeatableView], in db: PostgresConnection) throws -> [RepeatableView] {
        var stored: [String: String] = [:]
        for row in try db.query("SELECT view, checksum FROM report_views").rows {
            if let view = row[0].string, let checksum = row[1].string { stored[view] = checksum }
        }
        return views.filter { stored[$0.view] != $0.checksum }
    }

    /// What a push installs: the built-in reports, then the file's own reports that are not
    /// built-in ones (a user's executable's), as the file stores them.
    package static func declared(by local: SQLiteConnection) throws -> [RepeatableView] {
        let builtIn = try BuiltInScenarios.reportViews()
        let names = Set(builtIn.map(\.view)), reports = Set(builtIn.map(\.report))
        return builtIn + (try ReportViews.stored(in: local)).filter { !names.contains($0.view) && !reports.contains($0.report) }
    }
}
