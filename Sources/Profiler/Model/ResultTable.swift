/// Columns and rows of values: what every renderer formats.
package struct ResultTable: Sendable, Equatable {
    package var columns: [String]
    package var rows: [[SQLValue]]

    package init(columns: [String], rows: [[SQLValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
