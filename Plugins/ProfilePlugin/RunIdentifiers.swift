/// The run ids a recording printed: record prints each run's id alone on a line of stdout
/// (docs/cli.md, "record"), which is how the plugin reports exactly the runs it made.
enum RunIdentifiers {
    static func `in`(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter(isRunIdentifier)
    }

    /// A UUID as record prints it: 36 characters, hex digits and four dashes at 8-4-4-4-12.
    static func isRunIdentifier(_ line: String) -> Bool {
        let groups = line.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
