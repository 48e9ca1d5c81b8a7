import Testing
import ProfilerQueries

@Suite("A name that names nothing")
struct UnknownNameErrorTests {
    @Test("with nothing known, the hint says why, without 'none recorded yet' contradicting it")
    func hintWithNothingKnown() {
        let error = UnknownNameError(kind: "component", name: "Label", origin: "--component", scope: "in image-cache", known: [],
                                     hint: "image-cache's report has no per-component rows; leave component out")
        #expect(error.description
                == "--component: no component named 'Label' in image-cache. image-cache's report has no per-component rows; leave component out")
    }

    @Test("the known names are listed, and 'none recorded yet' when there are none and no hint")
    func knownNames() {
        #expect(UnknownNameError(kind: "strategy", name: "eagr", origin: "--strategy", known: ["eager", "lazy"]).description
                == "--strategy: no strategy named 'eagr'; known: eager, lazy")
        #expect(UnknownNameError(kind: "label", name: "main", origin: "--baseline", known: []).description
                == "--baseline: no label named 'main'; known: none recorded yet")
    }
}
