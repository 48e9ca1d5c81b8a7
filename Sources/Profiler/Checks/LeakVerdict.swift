import ProfilerModel
import ProfilerScenarios

/// The leak verdicts of one component under one strategy in one run (docs/leaks.md):
/// the round-trip rule (what its round trips left behind that nothing declares) and the
/// growth rule (live bytes growing in every round after the first).
package struct LeakVerdict: Sendable, Equatable {
    package enum Status: String, Sendable {
        case pass
        /// The round trips left bytes behind that the scenario does not declare.
        case retained
        /// Live bytes grew in every measured round.
        case growing
        /// Within its budget, but not zero: allowed by a budget key.
        case allowed
    }

    package let component: String
    package let strategy: String
    package let rounds: Int
    /// Bytes and blocks the round trips left that no declaration covers, summed over rounds.
    package let retainedBytes: Int64
    package let retainedBlocks: Int64
    /// Bytes and blocks left on purpose (declared), reported apart, never as a leak.
    package let intendedBytes: Int64
    package let intendedBlocks: Int64
    package let intendedReason: String?
    /// Growth per round: nil when fewer than `LeakRules.minimumRepeats` rounds were recorded.
    package let growth: Growth?
    package let retainedBudget: Double?
    package let growthBudget: Double?
    /// With `--sites`: the functions that allocated what outlived the round trips, largest
    /// first (empty when nothing did); nil when the run was recorded without sites.
    package var sites: [LeakSite]? = nil
    /// With `--types`: the types of what outlived the round trips, most objects first
    /// (LeakTypes); nil when not named.
    package var types: [LeakType]? = nil
    /// With `--types`, why what stayed is not named by type, or why the types named do not
    /// add up to the verdict's figures; nil otherwise.
    package var typesNote: String? = nil

    /// Rounds after the first (the warm-up round) and how many of them left bytes.
    package struct Growth: Sendable, Equatable {
        package let measuredRounds: Int
        package let growingRounds: Int
        /// Mean bytes left per measured round.
        package let bytesPerRound: Double
        /// Every measured round left bytes: the growth rule fires.
        package var grows: Bool { measuredRounds > 0 && growingRounds == measuredRounds }
    }

    package var retainedFails: Bool { Double(retainedBytes) > (retainedBudget ?? 0) }
    package var growthFails: Bool {
        guard let growth, growth.grows else { return false }
        return growth.bytesPerRound > (growthBudget ?? 0)
    }

    package var fails: Bool { retainedFails || growthFails }

    package var status: Status {
        if retainedFails { return .retained }
        if growthFails { return .growing }
        if retainedBytes > 0 || growth?.grows == true { return .allowed }
        return .pass
    }

    /// "allocated by F (N B), G (M B)": the largest `limit` sites, or nil when none is named.
    package func allocatedBy(limit: Int = 5) -> String? {
        guard let sites, !sites.isEmpty else { return nil }
        let named = sites.prefix(limit).map { "\($0.shortName) (\($0.bytes) B)" }
        return "allocated by " + named.joined(separator: ", ") + (sites.count > limit ? " and \(sites.count - limit) more" : "")
    }

    /// "stayed: 20 ProfilerCatalog.TickerScreen, 20 ProfilerCatalog.Label": the largest
    /// `limit` types, or nil when none is named.
    package func stayedTypes(limit: Int = 5) -> String? {
        guard let types, !types.isEmpty else { return nil }
        let named = types.prefix(limit).map { "\($0.objects) \($0.type)" }
        return "stayed: " + named.joined(separator: ", ") + (types.count > limit ? " and \(types.count - limit) more types" : "")
    }

    /// One sentence for people: what was left, what was intended, how it grew.
    package var note: String {
        var parts: [String] = []
        if retainedBytes > 0 {
            parts.append("\(retainedBytes) B in \(retainedBlocks) blocks outlived the round trip\(rounds > 1 ? " (over \(rounds) rounds)" : "")"
                + (retainedBudget.map { " (budget \(SQLValue.numberText($0)) B)" } ?? ""))
        }
        if intendedBytes > 0 { parts.append("\(intendedBytes) B kept on purpose: \(intendedReason ?? "declared")") }
        if let growth {
            if growth.grows {
                parts.append("grew in all \(growth.measuredRounds) rounds after the first, \(SQLValue.numberText((growth.bytesPerRound * 100).rounded() / 100)) B per round"
                    + (growthBudget.map { " (budget \(SQLValue.numberText($0)) B)" } ?? ""))
            } else if growth.growingRounds > 0 {
                parts.append("grew in \(growth.growingRounds) of \(growth.measuredRounds) rounds after the first: not growth")
            }
        }
        return parts.isEmpty ? "nothing left behind" : parts.joined(separator: "; ")
    }
}

/// The two rules, applied to a run's round trips.
package enum LeakRules {
    /// Rounds needed for the growth rule: the first is the warm-up, and one round of
    /// noise after it is not growth, so at least two more.
    package static let minimumRepeats = 3

    /// The budget keys: the most retained bytes, the most growth per round.
    package static let retainedBytesKey = "retained_bytes"
    package static let growthKey = "growth_bytes_per_round"
    package static let budgetKeys = [retainedBytesKey, growthKey]

    /// One verdict per (component, strategy), in the order of the round trips.
    package static func verdicts(_ trips: [RoundTrip], repeats: Int, declared: [KeptBytes],
                                budget: (_ metric: String, _ component: String, _ strategy: String) -> Double? = { _, _, _ in nil })
        -> [LeakVerdict] {
        var order: [String] = []
        var groups: [String: [RoundTrip]] = [:]
        for trip in trips {
            let key = trip.component + "\u{0}" + trip.strategy
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(trip)
        }
        return order.compactMap { key in
            guard let group = groups[key], let first = group.first else { return nil }
            var retained: Int64 = 0, retainedBlocks: Int64 = 0, intended: Int64 = 0, intendedBlocks: Int64 = 0
            var reason: String?
            for trip in group {
                let split = trip.split(declared: declared)
                retained += split.retainedBytes
                retainedBlocks += split.retainedBlocks
                intended += split.intendedBytes
                intendedBlocks += split.intendedBlocks
                reason = reason ?? split.reason
            }
            var growth: LeakVerdict.Growth?
            if repeats >= minimumRepeats {
                // A round that built nothing of this component counts as a round that did not grow.
                let byRound = Dictionary(group.map { ($0.repeatIndex, $0.growthBytes(declared: declared)) }, uniquingKeysWith: +)
                let measured = (1..<repeats).map { byRound[$0] ?? 0 }
                growth = LeakVerdict.Growth(measuredRounds: measured.count, growingRounds: measured.filter { $0 > 0 }.count,
                                            bytesPerRound: Double(measured.reduce(0, +)) / Double(measured.count))
            }
            return LeakVerdict(component: first.component, strategy: first.strategy, rounds: Set(group.map(\.repeatIndex)).count,
                               retainedBytes: retained, retainedBlocks: retainedBlocks, intendedBytes: intended,
                               intendedBlocks: intendedBlocks, intendedReason: reason, growth: growth,
                               retainedBudget: budget(retainedBytesKey, first.component, first.strategy),
                               growthBudget: budget(growthKey, first.component, first.strategy))
        }
    }
}
