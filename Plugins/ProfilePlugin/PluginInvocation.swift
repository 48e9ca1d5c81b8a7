import Foundation

/// What `swift package profile` was asked: an action, the plugin's own options (the
/// database and which executables), and everything else, passed on unchanged to the
/// executables (record) or to `profctl report` / `profctl check`, which check it themselves.
struct PluginInvocation {
    enum Action: String, CaseIterable {
        case record, report, check, help
    }

    /// The database when `--db` does not name one, relative to the package's folder.
    static let defaultDatabase = ".profctl/profile.sqlite"

    var action: Action = .record
    var databasePath: String?
    var executables: [String] = []
    var passedOn: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            guard let action = Action(rawValue: first) else {
                throw PluginUsageError.unknownAction(first)
            }
            self.action = action
            rest = rest.dropFirst()
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                action = .help
            case "--db", "--executable":
                guard let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
                    throw PluginUsageError.missingValue(argument)
                }
                if argument == "--db" { databasePath = value } else { executables.append(value) }
            case let option where option.hasPrefix("--db=") || option.hasPrefix("--executable="):
                let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[1].isEmpty else { throw PluginUsageError.missingValue(parts[0]) }
                if parts[0] == "--db" { databasePath = parts[1] } else { executables.append(parts[1]) }
            default:
                passedOn.append(argument)
            }
        }
        if !executables.isEmpty && action != .record {
            throw PluginUsageError.executableOutsideRecord(action.rawValue)
        }
    }

    /// `--db`, or `.profctl/profile.sqlite`, relative to the package's folder.
    func database(in packageDirectory: URL) -> URL {
        let path = databasePath ?? Self.defaultDatabase
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return packageDirectory.appendingPathComponent(path)
    }
}

/// A command line the plugin cannot act on: its message names the mistake and the choices.
enum PluginUsageError: Error {
    case unknownAction(String)
    case missingValue(String)
    case executableOutsideRecord(String)

    var message: String {
        switch self {
        case .unknownAction(let name):
            let choices = PluginInvocation.Action.allCases.map(\.rawValue)
            return "error: 'swift package profile' has no command '\(name)'.\nCommands: \(choices.joined(separator: ", "))\n"
                + "  See 'swift package profile --help'."
        case .missingValue(let option):
            return "error: \(option) needs a value: \(option == "--db" ? "a database path" : "an executable's name")."
        case .executableOutsideRecord(let action):
            return "error: --executable picks what record runs; '\(action)' reads the database and takes none."
        }
    }
}
