import Foundation
import ProfilerStore
import ProfilerSupport

/// The name runs are stored under (`runs.scenario`) must mean one kind of scenario:
/// reports, `check`, `trend` and baselines all group runs by it, so runs of two kinds
/// under one name would be compared as if they were alike.
public enum RunNames {
    /// Why a scenario file cannot take `name`, or nil: the built-in scenarios' names are theirs.
    public static func builtInClash(_ name: String) -> String? {
        guard BuiltInScenarios.all.contains(where: { $0.name == name }) else { return nil }
        return "name '\(name)' is a built-in scenario's; runs under it would mix with the built-in's runs. "
            + "Choose another name, or leave `name:` out to record under the kind's own name"
    }

    /// Words that pick runs by rule wherever a run or baseline is named (`--run latest`,
    /// `--baseline previous`, `median:N`): a scenario under one of these names would read
    /// as the rule.
    public static let reservedWords: Set<String> = ["latest", "previous", "median"]

    /// Why a scenario file cannot take `name` because it is a reserved word, or nil.
    public static func reservedClash(_ name: String) -> String? {
        guard reservedWords.contains(name.lowercased()) || name.lowercased().hasPrefix("median:") else { return nil }
        return "name '\(name)' is reserved: latest, previous and median:N pick runs by rule wherever a run or baseline is named; choose another name"
    }

    /// Throws when a run name is planned for two kinds at once, or already holds stored
    /// runs of another kind in the database at `path`. Reads only; a database that does
    /// not exist yet (or is empty) holds no runs.
    /// - Parameter plans: per run to record, its name, its scenario kind, and where it came from.
    public static func requireOneKindPerName(_ plans: [(name: String, kind: String, origin: String)], databasePath path: String) throws {
        try requireOneKindPerName(plans)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else { return }
        try requireStoredKinds(plans, in: try ProfileStore.openForInspection(path: path), databasePath: path)
    }

    /// Throws when a run name is planned for two kinds at once (the database is not read).
    public static func requireOneKindPerName(_ plans: [(name: String, kind: String, origin: String)]) throws {
        var planned: [String: (kind: String, origin: String)] = [:]
        for plan in plans {
            if let earlier = planned[plan.name], earlier.kind != plan.kind {
                throw ScenarioError.invalidOption("\(plan.origin): the run name '\(plan.name)' is also taken by \(earlier.origin), "
                                                  + "of kind \(earlier.kind) (this one is of kind \(plan.kind)); one name holds one kind "
                                                  + "of scenario: rename one of them")
            }
            planned[plan.name] = (plan.kind, plan.origin)
        }
    }

    /// Throws when a planned run name already holds stored runs of another kind in `db`
    /// (the connection `record` goes on to record with: one schema parse per process).
    public static func requireStoredKinds(_ plans: [(name: String, kind: String, origin: String)], in db: SQLiteConnection,
                                          databasePath path: String) throws {
        guard try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs'")?.int64 == 1 else { return }
        for plan in plans {
            let stored = try db.rows("""
                SELECT DISTINCT coalesce(json_extract(parameters, '$.kind'), scenario) FROM runs WHERE scenario = ?
                """, [.text(plan.name)]).compactMap { $0.first?.string }
            if let other = stored.first(where: { $0 != plan.kind }) {
                throw ScenarioError.invalidOption("\(plan.origin): \(path) already holds runs named '\(plan.name)' of kind \(other); "
                                                  + "this one is of kind \(plan.kind), and one name holds one kind "
                                                  + "(reports, check and baselines group runs by name): choose another name")
            }
        }
    }
}
