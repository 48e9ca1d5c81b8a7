import Foundation
import ProfilerModel
import ProfilerQueries
import ProfilerStore
import ProfilerSupport

/// Why a check cannot compare. The messages say what differs and not how to allow it:
/// a library caller sets ``CheckRequest/allowEnvironmentMismatch`` or
/// ``CheckRequest/allowParameterMismatch``, and profctl adds its own flags (FlagAdvice).
public enum CheckError: Error, CustomStringConvertible, Equatable, Sendable {
    case baselineNotFound(String)
    case environmentMismatch([String])
    /// The baseline ran another workload (rows 100 against 500): its figures are not comparable.
    case parameterMismatch([String])
    case invalidBaseline(String)
    /// An aborted or running run named as the run to check or as its baseline.
    case runNotComplete(role: String, run: String, scenario: String, status: String, reason: String?)

    public var description: String {
        switch self {
        case .baselineNotFound(let what): "baseline not found: \(what)"
        case .environmentMismatch(let differences):
            "the baseline was recorded in another environment (\(differences.joined(separator: "; "))); "
                + "its figures are not comparable with this run's"
        case .parameterMismatch(let differences):
            "the baseline was recorded with other parameters (\(differences.joined(separator: "; "))), so its figures "
                + "measure another workload (previous and median:N pick runs with the same parameters)"
        case .invalidBaseline(let text):
            "baseline '\(text)': expected a run id, a baseline label, previous, or median:N"
        case .runNotComplete(let role, let run, let scenario, let status, let reason):
            "\(role), \(scenario) run \(run), is \(status)\(reason.map { " (\($0))" } ?? ""): its figures are partial, "
                + "not a result; check a complete run (profctl runs lists each run's status)"
        }
    }
}

/// Finds the runs a check compares against: a run id or prefix, a label, `previous`
/// (the newest complete run of the same scenario before this one), or `median:N` (the
/// last N complete runs of the same scenario on the same branch).
package enum BaselineResolver {
    /// Why a label cannot be called `name`, or nil when it can: `--baseline` reads
    /// `latest`, `previous` and `median:N` as the rules they name, so a label with such a
    /// name could never be reached; an empty name could not be typed.
    package static func reservedLabelReason(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "a baseline label cannot be empty" }
        if ["latest", "previous"].contains(name) || name.hasPrefix("median:") {
            return "'\(name)' cannot be a baseline label: a baseline named latest, previous or median:N is read as that rule, "
                + "not labels; choose another name (e.g. main)"
        }
        return nil
    }

    /// The length of the run ids profctl prints (`runs`, `check`): a label of this many hex
    /// digits or more reads as a run id to anyone, and could become one after a merge.
    package static let runIDPrefixLength = 8

    /// Why `name` cannot label a run because it looks like a run id, or nil when it can:
    /// `--baseline` reads labels before run ids, so a label `b7c1c7c5` on another run would
    /// silently stand in for run b7c1c7c5. Refused when it is a prefix of a run in the store,
    /// or made of hex digits (and dashes) only and at least ``runIDPrefixLength`` long.
    package static func runLikeLabelReason(_ name: String, in db: any SQLRowSource) throws -> String? {
        let lowered = name.lowercased()
        let hexOnly = !lowered.isEmpty && lowered.allSatisfy { $0.isHexDigit || $0 == "-" }
        if hexOnly && lowered.count >= runIDPrefixLength {
            return "'\(name)' cannot be a baseline label: it reads as a run id (hex digits), and a baseline named \(name) would be taken for a run; "
                + "choose a name with a letter past f (e.g. main, release-1.2)"
        }
        if hexOnly, let run = try? RunQueries.resolve(lowered, in: db) {
            return "'\(name)' cannot be a baseline label: it is the start of run \(run.runID.prefix(8)) (\(run.scenario)), "
                + "so a baseline named \(name) would stand for that run; choose another name (e.g. main)"
        }
        if hexOnly, try db.scalar("SELECT count(*) FROM runs WHERE run_id LIKE ? || '%'", [.text(lowered)])?.int64 ?? 0 > 1 {
            return "'\(name)' cannot be a baseline label: it is the start of several run ids; choose another name (e.g. main)"
        }
        return nil
    }

    /// - Parameter sameParameters: `previous` and `median:N` pick only runs recorded with the
    ///   run's workload parameters (``workloadDifferences(_:_:)``), and throw
    ///   ``CheckError/parameterMismatch(_:)`` when earlier runs exist but none has them.
    package static func resolve(_ spec: String, for run: RunInfo, sameParameters: Bool = false,
                               in db: any SQLRowSource) throws -> [RunInfo] {
        if spec == "previous" {
            let candidates = try db.rows("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND scenario = ? AND started_at < ? AND run_id <> ?
                ORDER BY started_at DESC
                """, [.text(run.scenario), .text(run.startedAt), .text(run.runID)]).map(RunInfo.init(row:))
            guard let newest = candidates.first else { throw CheckError.baselineNotFound("no complete \(run.scenario) run before \(run.runID.prefix(8))") }
            guard sameParameters else { return [newest] }
            guard let same = candidates.first(where: { workloadDifferences(run, [$0]).isEmpty }) else {
                throw CheckError.parameterMismatch(workloadDifferences(run, [newest]))
            }
            return [same]
        }
        if spec.hasPrefix("median:") {
            guard let count = Int(spec.dropFirst("median:".count)), count >= 1 else { throw CheckError.invalidBaseline(spec) }
            let candidates = try db.rows("""
                SELECT \(RunInfo.columns) FROM runs
                WHERE status = 'complete' AND scenario = ?1 AND started_at < ?2 AND run_id <> ?3
                  AND branch IS NOT DISTINCT FROM CAST(?4 AS TEXT)
                ORDER BY started_at DESC
                """, [.text(run.scenario), .text(run.startedAt), .text(run.runID), SQLValue(run.branch)]).map(RunInfo.init(row:))
            guard let newest = candidates.first else {
                throw CheckError.baselineNotFound("no complete \(run.scenario) run before this one on branch \(run.branch ?? "(none)")")
            }
            let eligible = sameParameters ? candidates.filter { workloadDifferences(run, [$0]).isEmpty } : candidates
            guard !eligible.isEmpty else { throw CheckError.parameterMismatch(workloadDifferences(run, [newest])) }
            return Array(eligible.prefix(count))
        }
        if let labelled = try Baselines.run(named: spec, scenario: run.scenario, in: db) { return [labelled] }
        if try Baselines.exists(spec, in: db) {
            throw CheckError.baselineNotFound("label '\(spec)' has no \(run.scenario) run")
        }
        do {
            return [try RunQueries.resolve(spec, in: db)]
        } catch StoreError.runNotFound {
            // Labels exist, and this is none of them: a typo (mian for main) must not read as
            // "no baseline yet", which CI recipes let pass. With no label at all it is the
            // first run of a history, and exit 5 says so.
            let labels = try Baselines.names(in: db)
            if !labels.isEmpty {
                throw UnknownNameError(kind: "baseline label or run", name: spec, origin: "baseline", known: labels,
                                       hint: "A baseline is one of these labels, a run id (profctl runs lists them), previous or median:N")
            }
            throw CheckError.baselineNotFound("no label or run '\(spec)' (this database has no baseline labels yet)")
        }
    }

    /// Whether two runs' values of one environment key agree. A `swift_version` of the minor
    /// version only (6.3: recorded before profctl recorded the patch) agrees with every patch
    /// of it (6.3.1), so that upgrading profctl does not turn a history's baselines into
    /// another environment's.
    static func sameEnvironmentValue(_ key: String, _ before: String?, _ now: String?) -> Bool {
        guard before != now else { return true }
        guard key == "swift_version", let before, let now else { return false }
        func minorOnly(_ version: String) -> Bool {
            version.split(separator: ".", omittingEmptySubsequences: false).count == 2 && version.allSatisfy { $0.isNumber || $0 == "." }
        }
        return (minorOnly(before) && now.hasPrefix(before + ".")) || (minorOnly(now) && before.hasPrefix(now + "."))
    }

    /// Differences in Swift version, build configuration, OS or architecture.
    package static func environmentDifferences(_ run: RunInfo, _ baselines: [RunInfo]) -> [String] {
        var differences: [String] = []
        let arcKeys: Set = [RunInfo.arcCountingKey, RunInfo.arcToolchainKey]
        for baseline in baselines {
            let before = baseline.environmentKey, now = run.environmentKey
            for key in Set(now.keys).union(before.keys).sorted() where !sameEnvironmentValue(key, before[key], now[key]) {
                // A run recorded before ARC counting has no method: nothing of its ARC is compared.
                if arcKeys.contains(key), before[key] == nil || now[key] == nil { continue }
                differences.append("\(key) \(before[key] ?? "?") in \(baseline.runID.prefix(8)) vs \(now[key] ?? "?")")
            }
        }
        return Array(Set(differences)).sorted()
    }

    /// The parameters (items, repeats, strategies, ...) in which the baselines were
    /// recorded differently from the run, as "items 5 in 1a2b3c4d vs 60". A note for the
    /// reader: other parameters explain a change in the figures, they do not gate.
    package static func parameterDifferences(_ run: RunInfo, _ baselines: [RunInfo]) -> [String] {
        // The same text is the same parameters: nothing to read (reading them is the first use
        // of JSONSerialization and of casts from Any, 2.2M instructions of a one-run check).
        let differing = baselines.filter { $0.parameters != run.parameters }
        guard !differing.isEmpty else { return [] }
        let now = parameterTexts(run.parameters)
        var differences: [String] = []
        for baseline in differing {
            let before = parameterTexts(baseline.parameters)
            for name in Set(now.keys).union(before.keys).sorted() where now[name] != before[name] {
                differences.append("\(name) \(before[name] ?? "(not set)") in \(baseline.runID.prefix(8)) vs \(now[name] ?? "(not set)")")
            }
        }
        return Array(Set(differences)).sorted()
    }

    /// Parameters that do not change what a metric measures: `repeats` (more samples of the
    /// same workload) and `strategies` (a strategy left out is reported as missing).
    package static let nonWorkloadParameters: Set<String> = ["repeats", "strategies"]

    /// The parameter differences that make the figures another workload's (rows 100 against
    /// 500): every parameter but ``nonWorkloadParameters``. They fail a check unless allowed.
    package static func workloadDifferences(_ run: RunInfo, _ baselines: [RunInfo]) -> [String] {
        parameterDifferences(run, baselines).filter { difference in
            !nonWorkloadParameters.contains(where: { difference.hasPrefix($0 + " ") })
        }
    }

    /// A run's parameters (a JSON object) as text per name; none when it cannot be read.
    static func parameterTexts(_ json: String) -> [String: String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [:] }
        return object.mapValues { value in
            if let list = value as? [Any] { return list.map { "\($0)" }.joined(separator: ",") }
            return "\(value)"
        }
    }
}
