/// One site of a run, as stored: its keys, the frame it is named by, its counts.
package struct SiteRow: Sendable, Equatable {
    package let component: String
    package let strategy: String
    package let kind: String
    /// The demangled function the folding rule names the stack by.
    package let site: String
    package let file: String
    package let line: Int
    package let stackID: Int64
    package let counts: SiteCounts

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
package struct RunSites: Sendable, Equatable {
    package let runID: String
    package let rows: [SiteRow]
    package let stacks: [Int64: SiteStack]

    package init(runID: String, rows: [SiteRow], stacks: [Int64: SiteStack]) {
        self.runID = runID
        self.rows = rows
        self.stacks = stacks
    }
}
