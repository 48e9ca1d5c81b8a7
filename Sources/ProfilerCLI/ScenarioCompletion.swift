import Foundation

/// Shell completion for the scenario arguments of `record`: scenario names, and scenario
/// files (`.yaml`, `.yml`) and the folders that lead to them, matching what is typed.
package enum ScenarioCompletion {
    /// Candidates for a word that starts with `prefix`: the names that match, then the
    /// scenario files and folders under the folder the prefix names (relative to the
    /// current directory when it names none).
    package static func candidates(names: [String], prefix: String) -> [String] {
        let matchingNames = names.filter { $0.hasPrefix(prefix) }
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let expanded = NSString(string: folder.isEmpty ? "." : folder).expandingTildeInPath
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: expanded)) ?? []
        var files: [String] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") || prefix.hasPrefix(folder + ".") {
            let path = folder + entry
            guard path.hasPrefix(prefix) else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: (expanded as NSString).appendingPathComponent(entry), isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                files.append(path + "/")
            } else if entry.hasSuffix(".yaml") || entry.hasSuffix(".yml") {
                files.append(path)
            }
        }
        return matchingNames + files
    }
}
