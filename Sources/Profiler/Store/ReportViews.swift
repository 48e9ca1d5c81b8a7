import ProfilerSupport
import ProfilerModel

/// A view kept in step with a declaration, apart from the numbered migrations: created,
/// or dropped and created again, when its checksum differs from the one stored in
/// `report_views` (Flyway's repeatable migrations). What the reading commands need to
/// read it (the declaration as JSON) is stored beside it.
package struct RepeatableView: Sendable, Equatable {
    package let view: String
    /// The `runs.report` value of the runs it reports.
    package let report: String
    package let query: String
    package let checksum: String
    package let declaration: String

    package init(view: String, report: String, query: String, checksum: String, declaration: String) {
        self.view = view
        self.report = report
        self.query = query
        self.checksum = checksum
        self.declaration = declaration
    }
}

extension RepeatableView {
    /// A row of `report_views`: view, report, checksum, query, declaration.
    init(storedRow row: [SQLValue]) {
        self.init(view: row[0].string ?? "", report: row[1].string ?? "", query: row[3].string ?? "",
                  checksum: row[2].string ?? "", declaration: row[4].string ?? "")
    }

    /// Whether the view's name may go into SQL text on either store: lowercase ASCII
    /// letters, digits and `_` (what ReportDeclaration.problem allows).
    package var hasSafeName: Bool {
        !view.isEmpty && view.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }
}

/// Installs repeatable views in a database opened for writing (never from a reading command).
package enum ReportViews {
    /// Creates what is missing or changed, all in one immediate transaction; a database
    /// already in step costs one read and takes no write lock.
    package static func install(_ views: [RepeatableView], in db: SQLiteConnection) throws {
        guard !views.isEmpty, try !stale(views, in: db).isEmpty else { return }
        try db.transaction {
            // Another process may have installed them while this one waited for the lock.
            for view in try stale(views, in: db) { try replace(view, in: db) }
        }
    }

    /// Creates one view, or drops and creates it again, and stores its declaration; the
    /// caller holds the transaction.
    static func replace(_ view: RepeatableView, in db: SQLiteConnection) throws {
        // The name goes into SQL text: only what a declaration allows (ReportDeclaration.problem).
        guard view.hasSafeName else {
            throw SQLiteError(code: 1, message: "a report view cannot be named '\(view.view)': use lowercase letters, digits and _")
        }
        // Qualified: merge calls this with an input attached, which may hold a view of the same name.
        try db.execute("DROP VIEW IF EXISTS main.\(view.view)")
        try db.execute("CREATE VIEW main.\(view.view) AS\n\(view.query)")
        try db.run("DELETE FROM main.report_views WHERE view = ? OR report = ?", [.text(view.view), .text(view.report)])
        try db.run("""
            INSERT INTO main.report_views (view, report, checksum, query, declaration, updated_at) VALUES (?, ?, ?, ?, ?, ?)
            """, [.text(view.view), .text(view.report), .text(view.checksum), .text(view.query), .text(view.declaration),
                  .text(Timestamp.now())])
    }

    /// The report views of an attached database `source` that `main` lacks, as stored there
    /// (merge copies them with the runs that read them).
    static func missing(fromAttached source: String, in db: SQLiteConnection) throws -> [RepeatableView] {
        try db.rows("""
            SELECT view, report, checksum, query, declaration FROM \(source).report_views
            WHERE view NOT IN (SELECT view FROM main.report_views) ORDER BY view
            """).map(RepeatableView.init(storedRow:))
    }

    /// Every report view a database stores (push takes a user's own reports from here).
    package static func stored(in db: SQLiteConnection) throws -> [RepeatableView] {
        try db.rows("SELECT view, report, checksum, query, declaration FROM report_views ORDER BY view")
            .map(RepeatableView.init(storedRow:))
    }

    /// The views whose stored checksum is missing or different.
    static func stale(_ views: [RepeatableView], in db: SQLiteConnection) throws -> [RepeatableView] {
        let stored = Dictionary(try db.rows("SELECT view, checksum FROM report_views").map {
            ($0[0].string ?? "", $0[1].string ?? "")
        }, uniquingKeysWith: { a, _ in a })
        return views.filter { stored[$0.view] != $0.checksum }
    }
}
