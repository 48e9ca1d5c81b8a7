/// The report that fits a scenario: which view it reads and how it is titled.
public enum ReportKind: String, Sendable, CaseIterable {
    /// Bytes per instance and savings against the baseline (lazy-container, live-room).
    case savings
    case imageCache = "image-cache"
    case lazyList = "lazy-list"
    case compositeCell = "composite-cell"
    case identity
    case liveRoom = "live-room"

    /// The SQL view the report reads (documented in docs/schema.md).
    public var view: String {
        switch self {
        case .savings: "savings_report"
        case .imageCache: "cache_report"
        case .lazyList: "list_report"
        case .compositeCell: "cell_report"
        case .identity: "identity_report"
        case .liveRoom: "live_room_report"
        }
    }
}
