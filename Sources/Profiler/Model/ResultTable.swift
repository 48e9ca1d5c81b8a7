/// Columns and rows of values: what every renderer formats.
public struct ResultTable: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[SQLValue]]

    public init(columns: [String], rows: [[SQLValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
