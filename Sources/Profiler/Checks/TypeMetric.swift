import ProfilerModel
import ProfilerQueries
import ProfilerStore
import ProfilerSupport

/// Objects of one Swift type per measured instance, `objects_per_instance[ProfilerCatalog.Label]`:
/// the gated figure of a run recorded with `record --types`, per (component, strategy),
/// summed over the event kinds and divided by the measured instances (instances x
/// repeats), as `allocations_per_instance` is. Exact: one object more per instance of a
/// type is a regression. The remainder row (blocks no object claims) is no type: its
/// blocks are gated by `allocations_per_instance`.
///
/// The marker is spelled here alone; a budget names the family (`metric:
/// objects_per_instance`) and the type apart (`type:`), a tolerance the family.
package struct TypeMetricName: Sendable, Hashable {
    /// The type's name as `profctl types` shows it.
    package let type: String

    /// What budgets and tolerances call every type's metric.
    package static let family = "objects_per_instance"

    package init(type: String) { self.type = type }

    /// Parses a metric name; nil for a name that is not a type's.
    package init?(_ name: String) {
        guard name.hasPrefix(Self.family + "["), name.hasSuffix("]"), name.count > Self.family.count + 2 else { return nil }
        type = String(name.dropFirst(Self.family.count + 1).dropLast())
    }

    package var name: String { "\(Self.family)[\(type)]" }

    /// Whether `name` names a type's metric (or the family of them).
    package static func isTypeMetric(_ name: String) -> Bool { name == family || TypeMetricName(name) != nil }
}

/// Reads, completes and explains the type metrics of runs recorded with `--types`.
package enum TypeMetric {
    /// Whether the run was recorded with `--types` (false on a store without the types tables).
    package static func recorded(_ run: RunInfo, in db: any SQLRowSource) throws -> Bool {
        guard try db.hasRelation("object_type_runs") else { return false }
        return try db.scalar("SELECT 1 FROM object_type_runs t JOIN runs r ON r.run_key = t.run_key WHERE r.run_id = ?",
                             [.text(run.runID)]) != nil
    }

    /// The runs of `runs` recorded with `--types` and those without, when they are not all
    /// alike: what ``CheckError/typesMismatch(withTypes:without:)`` names. Nil when all
    /// were, or none was.
    package static func mismatch(_ runs: [RunInfo], in db: any SQLRowSource) throws -> (withTypes: [String], without: [String])? {
        var with: [String] = [], without: [String] = []
        for run in runs {
            if try recorded(run, in: db) { with.append(String(run.runID.prefix(8))) } else { without.append(String(run.runID.prefix(8))) }
        }
        return with.isEmpty || without.isEmpty ? nil : (with, without)
    }

    /// One metric per (component, strategy, type) of a run recorded with `--types` (none
    /// otherwise): its objects summed over event kinds, per measured instance of the
    /// (component, strategy): instances x repeats from the rollups, as for
    /// allocations_per_instance, or, for a subject without rollups (image-cache's hits and
    /// misses), its measured events. Not rounded: a single object more is a change.
    package static func metrics(of run: RunInfo, in db: any SQLRowSource) throws -> [Metric] {
        guard try recorded(run, in: db) else { return [] }
        return try db.rows("""
            WITH per_instance AS (
                SELECT x.component, x.strategy, CAST(x.instances * x.repeats AS BIGINT) AS measured
                FROM rollups x JOIN runs r ON r.run_key = x.run_key WHERE r.run_id = ?1
            ), per_event AS (
                SELECT s.component, s.strategy, CAST(count(*) AS BIGINT) AS measured
                FROM events e JOIN event_series es ON es.series_id = e.series_id
                JOIN subjects s ON s.subject_id = es.subject_id JOIN runs r ON r.run_key = es.run_key
                WHERE r.run_id = ?1 GROUP BY s.component, s.strategy
            )
            SELECT t.component, t.strategy, t.type, CAST(SUM(t.objects) AS BIGINT), coalesce(i.measured, e.measured)
            FROM types t
            LEFT JOIN per_instance i ON i.component = t.component AND i.strategy = t.strategy
            LEFT JOIN per_event e ON e.component = t.component AND e.strategy = t.strategy
            WHERE t.run_id = ?1 AND t.remainder = 0
            GROUP BY t.component, t.strategy, t.type, i.measured, e.measured
            ORDER BY t.component, t.strategy, t.type
            """, [.text(run.runID)]).compactMap { row in
            // No measured instance (its events pruned): no value, rather than 0 objects.
            guard let measured = row[4].double, measured > 0 else { return nil }
            return Metric(key: MetricKey(scenario: run.scenario, component: row[0].string ?? "", strategy: row[1].string ?? "",
                                         name: TypeMetricName(type: row[2].string ?? "").name),
                          value: (row[3].double ?? 0) / measured, polarity: .smallerIsBetter)
        }
    }

    /// A type one side has and the other lacks had no object there: 0 per instance, so a
    /// type that appears is a regression (not `new`) and one that vanishes an improvement
    /// (not `missing`). Only for (component, strategy) pairs both sides measured: a strategy
    /// left out of the run stays missing.
    package static func complete(current: [Metric], baselines: [[Metric]]) -> (current: [Metric], baselines: [[Metric]]) {
        func subject(_ key: MetricKey) -> [String] { [key.scenario, key.component, key.strategy] }
        func typed(_ metrics: [Metric]) -> [Metric] { metrics.filter { TypeMetricName($0.key.name) != nil } }
        // The subjects a side measured: any metric of theirs (a report row, allocations_per_instance).
        let sides = [current] + baselines
        // Runs recorded without --types have nothing to fill: the sets below (their first use
        // of a Set of arrays) cost a check of such runs 1.1M instructions.
        guard sides.contains(where: { !typed($0).isEmpty }) else { return (current, baselines) }
        let measured = sides.map { Set($0.map { subject($0.key) }) }
        let both = measured.dropFirst().reduce(measured[0]) { $0.intersection($1) }
        let typeKeys = Set(sides.flatMap(typed).map(\.key)).filter { both.contains(subject($0)) }
        let filled = sides.map { side -> [Metric] in
            let have = Set(side.map(\.key))
            return side + typeKeys.subtracting(have).sorted().map { Metric(key: $0, value: 0, polarity: .smallerIsBetter) }
        }
        return (filled[0], Array(filled.dropFirst()))
    }

    /// "+1 ProfilerCatalog.Label per instance": how a type's objects per instance changed,
    /// for the verdict's note; nil for any other metric, or when nothing changed.
    package static func change(_ verdict: Verdict) -> String? {
        guard let type = TypeMetricName(verdict.key.name)?.type, let change = verdict.change, abs(change) > 1e-9 else { return nil }
        let rounded = (change * 100).rounded() / 100
        let amount = rounded == 0 ? (change > 0 ? "+<0.01" : "-<0.01") : (change > 0 ? "+" : "") + SQLValue.numberText(rounded)
        return "\(amount) \(type) per instance"
    }

    /// The changed types named first in each type verdict's note.
    package static func explain(_ verdicts: [Verdict]) -> [Verdict] {
        verdicts.map { v in
            guard let change = change(v) else { return v }
            return Verdict(key: v.key, polarity: v.polarity, baseline: v.baseline, current: v.current, status: v.status,
                           note: change + "; " + v.note, fails: v.fails)
        }
    }

    /// The types of a scenario's runs recorded with `--types` (the remainder left out): what
    /// a budget's `type:` may name.
    package static func knownTypes(scenario: String, in db: any SQLRowSource) throws -> [String] {
        guard try db.hasRelation("types") else { return [] }
        return try db.rows("SELECT DISTINCT type FROM types WHERE scenario = ? AND remainder = 0 ORDER BY type",
                           [.text(scenario)]).compactMap { $0.first?.string }
    }

    /// Throws ``UnknownNameError`` with the known types when `type` is not one of the
    /// scenario's (a budget's `type:`, trend's `--metric 'objects_per_instance[TYPE]'`).
    /// - Parameter origin: where the name was given, as the caller's user knows it.
    package static func requireKnown(_ type: String, scenario: String, origin: String, in db: any SQLRowSource) throws {
        let known = try knownTypes(scenario: scenario, in: db)
        guard !known.contains(type) else { return }
        throw UnknownNameError(kind: "type", name: type, origin: origin, scope: "in the \(scenario) runs recorded with type capture on",
                               known: known, hint: known.isEmpty
                                   ? "no \(scenario) run was recorded with type capture on, so none of its types is known"
                                   : "a type is named in full, as the types view shows it")
    }
}
