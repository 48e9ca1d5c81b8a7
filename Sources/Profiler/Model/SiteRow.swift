/// One site of a run, as stored: its keys, the frame it is named by, its counts.
public struct SiteRow: Sendable, Equatable {
    public let component: String
    public let strategy: String
    public let kind: String
    /// The demangled function the folding rule names the stack by.
    public let site: String
    public let file: String
    public let line: Int
    public let stackID: Int64
    public let counts: SiteCounts

    package init(component: String, strategy: String, kind: String, site: String, file: String, line: Int, stackID: Int64,
                 counts: SiteCounts) {
        self.component = component
        self.strategy = strategy
        self.kind = kind
        self.site = site
        self.file = file
        self.line = line
        self.stackID = stackID
        self.counts = counts
    }
}

/// The sites of one run and the stacks they name: what the icicle page and pprof draw.
public struct RunSites: Sendable, Equatable {
    public let runID: String
    public let rows: [SiteRow]
    public let stacks: [Int64: SiteStack]

    package init(runID: String, rows: [SiteRow], stacks: [Int64: SiteStack]) {
        self.runID = runID
        self.rows = rows
        self.stacks = stacks
    }
}
