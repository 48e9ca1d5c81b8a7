import Testing
import ProfilerModel
import ProfilerQueries
import ProfilerSites
import ProfilerStore

/// `sites` and `types` (and `check`'s sites) share one filter and one way of resolving
/// and checking runs (RunCapture): what one of them cannot filter by is refused, not ignored.
@Suite("One filter for sites and types")
struct CaptureFilterTests {
    @Test("the SQL condition covers only the capture's columns, every value bound in order")
    func condition() {
        let filter = CaptureFilter(component: "Label", kind: "create", type: "Swift.Int")
        let sites = filter.condition(columns: RunCapture.sites.filterColumns, firstParameter: 2)
        #expect(sites.sql == "(CAST(?2 AS TEXT) IS NULL OR component = ?2) AND (CAST(?3 AS TEXT) IS NULL OR strategy = ?3)"
                + " AND (CAST(?4 AS TEXT) IS NULL OR kind = ?4)")
        #expect(sites.bindings == [.text("Label"), .null, .text("create")])
        let types = filter.condition(columns: RunCapture.types.filterColumns, firstParameter: 2)
        #expect(types.bindings == [.text("Label"), .null, .text("create"), .text("Swift.Int")])
        #expect(types.sql.hasSuffix("(CAST(?5 AS TEXT) IS NULL OR type = ?5)"))
    }

    @Test("a type given to the sites is refused with the names they can filter by")
    func typeOnSitesRefused() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        #expect(throws: UnknownNameError(kind: "filter", name: "type", origin: "--type", scope: "of the sites",
                                         known: ["component", "strategy", "kind"])) {
            try RunCapture.sites.validate(CaptureFilter(type: "Swift.Int"), runIDs: [], optionPrefix: "--", in: db)
        }
    }

    @Test("an unknown name is refused with the run's names, as before the two queries were one")
    func unknownComponent() throws {
        let temp = try TemporaryDatabase()
        let db = try ProfileStore.openForWriting(path: temp.path)
        #expect(throws: UnknownNameError(kind: "component", name: "Nope", origin: "type filter component",
                                         scope: "in the types of run r1", known: [])) {
            try RunCapture.types.validate(CaptureFilter(component: "Nope"), runIDs: ["r1"], in: db)
        }
    }
}
