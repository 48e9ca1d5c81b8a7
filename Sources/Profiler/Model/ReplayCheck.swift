/// Whether replaying a strategy's own trace through the policy it is reproduces what the
/// run recorded: every lookup's hit or miss, the evictions, and the bytes the cache held
/// at the end (the strategy's live bytes once every user has let go).
package struct ReplayCheck: Sendable {
    package let strategy: String
    package let policy: CachePolicy
    package let recordedHits: Int
    package let recordedMisses: Int
    package let recordedEvictions: Int
    package let recordedEndBytes: Int?
    package let replayed: ReplayResult

    package init(strategy: String, policy: CachePolicy, trace: CacheTrace, recordedEndBytes: Int?) {
        self.strategy = strategy
        self.policy = policy
        recordedHits = trace.recordedHits
        recordedMisses = trace.recordedMisses
        recordedEvictions = trace.recordedEvictions
        self.recordedEndBytes = recordedEndBytes
        replayed = policy.replay(trace)
    }

    package var matches: Bool {
        replayed.mismatches == 0 && replayed.hits == recordedHits && replayed.misses == recordedMisses
            && replayed.evictions == recordedEvictions && recordedEndBytes == replayed.endResidentBytes
    }

    package static let columns = ["strategy", "policy", "recorded_hits", "replayed_hits", "recorded_misses", "replayed_misses",
                                 "recorded_evictions", "replayed_evictions", "recorded_end_bytes", "replayed_end_bytes",
                                 "lookups_differing", "matches"]

    package var row: [SQLValue] {
        [.text(strategy), .text(policy.rawValue), .init(recordedHits), .init(replayed.hits), .init(recordedMisses),
         .init(replayed.misses), .init(recordedEvictions), .init(replayed.evictions),
         recordedEndBytes.map { .integer(Int64($0)) } ?? .null, .init(replayed.endResidentBytes),
         .init(replayed.mismatches), .text(matches ? "yes" : "no")]
    }
}
