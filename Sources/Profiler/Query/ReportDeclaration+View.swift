import ProfilerModel
import ProfilerStore

// The store's half of a report declaration (the declaration itself is a plain value in
// ProfilerModel, which knows nothing of views).
extension ReportDeclaration {
    /// The view as the store installs it; throws when the declaration cannot be one.
    package func repeatableView() throws -> RepeatableView {
        if let problem { throw ReportCatalogError.invalidDeclaration(problem) }
        return RepeatableView(view: view, report: name, query: query, checksum: try checksum(), declaration: try storedText())
    }
}
