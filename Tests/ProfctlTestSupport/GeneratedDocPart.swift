import Foundation

/// Parts of a document, each between the same two markers, that code generates (a table
/// from the declarations, a synopsis's formats from the menus). A test compares them with
/// what the code generates now; with `PROFCTL_WRITE_DOCS=1` it rewrites them instead, so a
/// stale doc is regenerated with the command the failure names.
package struct GeneratedDocPart: Sendable {
    /// The start marker's beginning (its line goes on to say how the part is generated).
    package let begin: String
    package let end: String

    package init(begin: String, end: String) {
        self.begin = begin
        self.end = end
    }

    /// The command that rewrites the generated parts of the docs.
    package static let regenerate = "PROFCTL_WRITE_DOCS=1 swift test --disable-xctest --filter GeneratedDocsTests"

    /// How many parts `document` has.
    package func count(in document: String) -> Int {
        var count = 0
        _ = regenerated(document) { count += 1; return $0 }
        return count
    }

    /// `document` with each part (the text between its marker lines) replaced by what
    /// `generate` makes of it. A start marker without its end leaves the rest unchanged.
    package func regenerated(_ document: String, _ generate: (String) -> String) -> String {
        var result = "", rest = document[...]
        while let start = rest.range(of: begin),
              let lineEnd = rest[start.upperBound...].firstIndex(of: "\n"),
              let stop = rest.range(of: end, range: lineEnd..<rest.endIndex) {
            let contentStart = rest.index(after: lineEnd)
            result += rest[..<contentStart] + generate(String(rest[contentStart..<stop.lowerBound])) + rest[stop]
            rest = rest[stop.upperBound...]
        }
        return result + rest
    }

    /// Checks the parts of the file at `url` against `generate` (rewriting them under
    /// PROFCTL_WRITE_DOCS=1): nil when they are current, else what is wrong.
    package func problem(in url: URL, _ generate: (String) -> String) throws -> String? {
        let document = try String(contentsOf: url, encoding: .utf8)
        guard count(in: document) > 0 else { return "\(url.lastPathComponent) lacks the generated part's markers (\(begin) ... \(end))" }
        let updated = regenerated(document, generate)
        if updated == document { return nil }
        if ProcessInfo.processInfo.environment["PROFCTL_WRITE_DOCS"] == "1" {
            try updated.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        return "\(url.lastPathComponent)'s part between \(begin) and \(end) differs from what the code generates: run \(Self.regenerate)"
    }
}
