/// The report that fits one run: rows of its scenario's report view.
package struct RunReport: Sendable {
    package let run: RunInfo
    /// The declaration of its report: the view it read, its columns and charts.
    package let declaration: ReportDeclaration
    /// `requested` or `usable` for reports by byte measure (savings); nil for the others (their bytes are requested).
    package let measure: ByteMeasure?
    package let table: ResultTable

    package init(run: RunInfo, declaration: ReportDeclaration, measure: ByteMeasure?, table: ResultTable) {
        self.run = run
        self.declaration = declaration
        self.measure = measure
        self.table = table
    }

    /// Columns every report view may have that the run itself already says.
    package static var runColumns: Set<String> { ReportDeclaration.runColumns }

    /// What a report prints for a lazy row whose break-even rate is NULL: lazy never wins
    /// (the container costs as much as the component or more). The views keep NULL, so
    /// comparisons in SQL stay false; every output format shows the word.
    package static let never = SQLValue.text("never")

    /// A view's rows as every format shows them: `never` where lazy never wins, and no
    /// break-even column at all in a run without a `lazy` strategy.
    package static func presented(_ table: ResultTable) -> ResultTable {
        withoutBreakEvenWithoutLazy(neverWhereLazyNeverWins(table))
    }

    /// The break-even rate answers "how many lazy containers may be realized before lazy
    /// loses": a run without `lazy` (a comparison of eager and cached, or of two decoders)
    /// has no such question, and a column of dashes beside its figures says nothing.
    package static func withoutBreakEvenWithoutLazy(_ table: ResultTable) -> ResultTable {
        guard let breakEven = table.columns.firstIndex(of: "break_even_pct"),
              let strategy = table.columns.firstIndex(of: "strategy"),
              !table.rows.contains(where: { $0[strategy] == .text("lazy") }) else { return table }
        return ResultTable(columns: table.columns.enumerated().filter { $0.offset != breakEven }.map(\.element),
                           rows: table.rows.map { row in row.enumerated().filter { $0.offset != breakEven }.map(\.element) })
    }

    package static func neverWhereLazyNeverWins(_ table: ResultTable) -> ResultTable {
        guard let breakEven = table.columns.firstIndex(of: "break_even_pct"),
              let strategy = table.columns.firstIndex(of: "strategy") else { return table }
        var copy = table
        for index in copy.rows.indices where copy.rows[index][strategy] == .text("lazy") && copy.rows[index][breakEven] == .null {
            copy.rows[index][breakEven] = never
        }
        return copy
    }
}
