import ProfilerSupport
import Testing

/// Migrations' and report declarations' checksums are stored in databases: the hash must
/// stay FNV-1a 64 of the UTF-8 bytes, whatever loop computes it.
@Suite struct FNV1aTests {
    @Test(arguments: [
        ("", "cbf29ce484222325"),
        ("a", "af63dc4c8601ec8c"),
        ("foobar", "85944171f73967e8"),
        ("CREATE TABLE é (x);", "5c3a5833b610f1e9"),
    ])
    func knownValues(text: String, hex: String) {
        #expect(FNV1a.hex(text) == hex)
    }

    @Test func aSubstringsCopyHashesAsTheWholeText() {
        let whole = "SELECT 1; SELECT 2;"
        let tail = String(whole.split(separator: " ", maxSplits: 1)[1])
        #expect(tail == "1; SELECT 2;" && FNV1a.hex(tail) == FNV1a.hex("1; SELECT 2;"))
    }
}
