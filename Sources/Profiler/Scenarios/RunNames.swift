import Foundation
import ProfilerStore
import ProfilerSupport

/// The name runs are stored under (`runs.scenario`) must mean one kind of scenario:
/// reports, `check`, `trend` and baselines all group runs by it, so runs of two kinds
/// under one name would be compared as if they were alike.
package enum RunNames {
    /// The characters a scenario's name may have: ASCII letters, digits, '-', '_' and '.'.
    /// ASCII only, so a name that looks like another (a Cyrillic 'о' in `lazy-cоntainer`)
    /// cannot be a different name: outside ASCII, telling look-alikes apart would need
    /// Unicode's confusables table, and names are typed on command lines and in YAML.
    package static let allowedCharacters = "ASCII letters, digits, '-', '_' or '.'"
    package static let maximumLength = 64

    /// Why a scenario that is not the built-in one cannot record under `name`, or nil: the
    /// one rule for users' programs (`Scenario.resolve`) and scenario files' `name:`.
    /// Names must be short ASCII words, not reserved words, and neither a built-in
    /// scenario's name nor one that looks like it (differs only in case, separators, 0/o,
    /// 1/l or rn/m).
    package static func problem(_ name: String) -> String? {
        let shown = String(name.prefix(maximumLength + 1))
        if name.isEmpty { return "a scenario needs a name (\(allowedCharacters))" }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return "name '\(shown)' has the character '\(bad.escaped(asASCII: false))' (\(code)), which a scenario's name may not have: "
                + "use only \(allowedCharacters), so that no name can look like another"
        }
        if name.count > maximumLength { return "name '\(shown)…' is longer than \(maximumLength) characters" }
        return builtInClash(name) ?? reservedClash(name)
    }

    /// Why `name` is not a user's to take because it is (or looks like) a built-in
    /// scenario's, or nil: runs under it would mix with the built-in's, or be mistaken for them.
    package static func builtInClash(_ name: String) -> String? {
        guard let builtIn = BuiltInScenarios.all.first(where: { skeleton($0.name) == skeleton(name) }) else { return nil }
        let what = builtIn.name == name ? "is the built-in scenario's name" : "looks like the built-in scenario '\(builtIn.name)'"
        return "name '\(name)' \(what); runs under it would mix with the built-in's runs in reports, check and baselines, "
            + "or be mistaken for them. Choose another name (a scenario file may leave `name:` out to record under its kind's own name)"
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                           || scalar == "-" || scalar == "_" || scalar == ".")
    }

    /// What a name looks like, for telling look-alikes apart: lowercase, one separator, and
    /// the ASCII characters that pass for one another in common fonts folded together.
    static func skeleton(_ name: String) -> String {
        var text = name.lowercased()
        for (from, to) in [("_", "-"), (".", "-"), ("0", "o"), ("1", "l"), ("rn", "m")] {
            text = text.replacingOccurrences(of: from, with: to)
        }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    /// Throws when `scenario` would record under a name that is not its to take: only a
    /// built-in scenario records under its own built-in name.
    package static func requireOwn(_ runName: String, for scenario: any Scenario) throws {
        let isTheBuiltIn = BuiltInScenarios.all.contains { type(of: $0) == type(of: scenario) && $0.name == runName }
        guard !isTheBuiltIn, let problem = problem(runName) else { return }
        throw ScenarioError.invalidOption("\(problem)")
    }

    /// Words that pick runs by rule wherever a run or baseline is named (`--run latest`,
    /// `--baseline previous`, `median:N`): a scenario under one of these names would read
    /// as the rule.
    package static let reservedWords: Set<String> = ["latest", "previous", "median"]

    /// Why a scenario file cannot take `name` because it is a reserved word, or nil.
    package static func reservedClash(_ name: String) -> String? {
        guard reservedWords.contains(name.lowercased()) || name.lowercased().hasPrefix("median:") else { return nil }
        return "name '\(name)' is reserved: latest, previous and median:N pick runs by rule wherever a run or baseline is named; choose another name"
    }

    /// Throws when a run name is planned for two kinds at once, or already holds stored
    /// runs of another kind in the database at `path`. Reads only; a database that does
    /// not exist yet (or is empty) holds no runs.
    /// - Parameter plans: per run to record, its name, its scenario kind, and where it came from.
    package static func requireOneKindPerName(_ plans: [(name: String, kind: String, origin: String)], databasePath path: String) throws {
        try requireOneKindPerName(plans)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else { return }
        try requireStoredKinds(plans, in: try ProfileStore.openForInspection(path: path), databasePath: path)
    }

    /// Throws when a run name is planned for two kinds at once (the database is not read).
    package static func requireOneKindPerName(_ plans: [(name: String, kind: String, origin: String)]) throws {
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
    package static func requireStoredKinds(_ plans: [(name: String, kind: String, origin: String)], in db: SQLiteConnection,
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

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
